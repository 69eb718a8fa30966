import type { InboxMessage, MessageData } from './types';

/** The loaded message a reply answers by its created_at (`context.reply_to`), if it is loaded. */
function answeredMessage<T extends InboxMessage>(messages: readonly T[], message: Pick<InboxMessage, 'data'>): T | undefined {
  const replyTo = message.data.context?.reply_to;
  return replyTo === undefined ? undefined : messages.find((candidate) => candidate.created_at === replyTo);
}

/**
 * What a message answers, for its quote: the answered message in one line (`preview`), ''
 * when that one is not loaded, null when it answers nothing.
 */
export function quotedText(messages: readonly InboxMessage[], message: Pick<InboxMessage, 'data'>, preview: (answered: InboxMessage) => string): string | null {
  if (message.data.context?.reply_to === undefined) return null;
  const answered = answeredMessage(messages, message);
  return answered ? preview(answered) : '';
}

/** The `data` a message sent in answer to `replyTo` carries with its own. */
export function replyData(data: MessageData, replyTo: Pick<InboxMessage, 'created_at'> | null): MessageData {
  return replyTo ? { ...data, context: { reply_to: replyTo.created_at } } : data;
}
