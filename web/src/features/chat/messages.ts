import { CHAT_POLL_FAST_MS, CHAT_POLL_SLOW_MS, CHAT_RECENT_MESSAGE_MS, MESSAGE_DELETED_TEXT } from './constants';
import type { MessageKind } from '../../shared/chat/kinds';
import type { ChatMessage, DeliveryIcon, DeliveryStatus, InboxMessage, MessageDraft } from '../../shared/chat/types';
import type { SendBody } from './chatApi';

/** `kind`: the plug-in's kind of the message's type, if one draws it. */
export function deliveryIcon(message: ChatMessage, kind?: MessageKind): DeliveryIcon {
  if (message.errors) return 'error';
  if (message.local === 'failed') return 'not_sent';
  if (message.local === 'sending') return 'pending';
  // A plug-in's message may be delivered elsewhere (a business message's tick is what WhatsApp reported).
  if (kind?.deliveryIcon) return kind.deliveryIcon(message);
  return message.flags.status ?? 'sent';
}

const STATUS_RANK: Record<DeliveryStatus, number> = { sent: 0, delivered: 1, read: 2 };

/** Status reports can arrive out of order; a message never goes back from read to delivered. */
export function raiseStatus<T extends InboxMessage>(message: T, status: DeliveryStatus): T {
  const current = message.flags.status ?? 'sent';
  return STATUS_RANK[status] > STATUS_RANK[current] ? { ...message, flags: { ...message.flags, status } } : message;
}

/**
 * Replaces the message a `message_update` names (a reaction, an edit, a deletion changed it),
 * its tick never going back; one not loaded stays out of the list.
 */
export function replaceMessage<T extends InboxMessage>(messages: readonly T[], updated: InboxMessage): T[] {
  return messages.map((message) => {
    if (message.id !== updated.id) return message;
    const replaced = { ...message, ...updated };
    return message.flags.status ? raiseStatus(replaced, message.flags.status) : replaced;
  });
}

/**
 * The list with `incoming` merged in, oldest first. A server message replaces the local one
 * with the same local_id, and a message seen twice (socket and poll) is kept once.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byKey = new Map<string, ChatMessage>();
  const keyOf = (message: ChatMessage) => (message.local_id ? `l:${message.local_id}` : `i:${message.id}`);
  for (const message of [...current, ...incoming]) {
    const key = keyOf(message);
    const known = byKey.get(key);
    // A local copy never overwrites the server's; a newer server copy keeps the higher status.
    if (known && !known.local && message.local) continue;
    byKey.set(key, known && !known.local && known.flags.status ? raiseStatus(message, known.flags.status) : message);
  }
  return [...byKey.values()].sort((a, b) => a.created_at - b.created_at);
}

/** Without a socket, a lively conversation is polled often and a quiet one rarely. */
export function pollIntervalMs(latestCreatedAt: number | null, now = Date.now()): number {
  return latestCreatedAt !== null && now - latestCreatedAt < CHAT_RECENT_MESSAGE_MS ? CHAT_POLL_FAST_MS : CHAT_POLL_SLOW_MS;
}

/** The newest message the server knows, the point polling continues from. */
export function latestServerTime(messages: readonly ChatMessage[]): number | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ChatMessage;
    if (!message.local) return message.created_at;
  }
  return null;
}

/** When its sender sent it: what its kind says (a WhatsApp customer's message may arrive late), else when the server stored it. */
export function sentAt(message: InboxMessage, kind: MessageKind | undefined): number {
  return kind?.sentAt?.(message) ?? message.created_at;
}

export function isSameDay(a: number, b: number): boolean {
  return new Date(a).toDateString() === new Date(b).toDateString();
}

/** A client-made id that lets the server recognise a retried send. */
export function newLocalId(): string {
  return crypto.randomUUID();
}

/**
 * A message on its way: the copy shown at once, and the body the outbox sends (and sends
 * again with the same local_id until the server answers).
 */
export function outgoingMessage(
  draft: MessageDraft,
  to: { sessionId: string; isDummy: boolean; senderId: string },
  localId: string = newLocalId(),
  createdAt: number = Date.now(),
): { local: ChatMessage; body: SendBody } {
  return {
    local: {
      id: localId,
      dest_session_id: to.sessionId,
      src_id: to.senderId,
      local_id: localId,
      created_at: createdAt,
      type: draft.type,
      payload: draft.text,
      payload1: draft.files,
      flags: {},
      data: draft.data,
      local: 'sending',
    },
    body: {
      dest_session_id: to.sessionId,
      payload: draft.text,
      payload1: draft.files.map((file) => file.url),
      _type: draft.type,
      is_dummy_session: to.isDummy,
      created_at: createdAt,
      local_id: localId,
      data: draft.data,
    },
  };
}

/** A message in one line, for lists: its text, else the place it shares; a plug-in's kind says for its own. */
export function messagePreview(message: InboxMessage, kind?: MessageKind): string {
  if (message.deleted_at) return MESSAGE_DELETED_TEXT;
  if (kind) return kind.preview(message);
  return message.payload || (message.data.location ? `📍 ${message.data.location.address}` : '');
}
