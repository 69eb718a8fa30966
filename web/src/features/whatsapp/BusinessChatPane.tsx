import type { ReactNode } from 'react';
import type { ConversationPaneProps } from '../../shared/chat/kinds';
import type { InboxMessage, MessageDraft, Session } from '../../shared/chat/types';
import { BusinessComposer } from './BusinessComposer';
import { businessData, customerName, isCustomerId, repliedTo } from './businessChat';
import { useReplyWindow } from './useReplyWindow';
import { useWaStatuses } from './useWaStatuses';
import { WindowStatus } from './WindowStatus';

/**
 * A business chat in the chat window: its messages with the ticks WhatsApp's statuses (1022)
 * move, the customer named on theirs and the quote of what each answers; for an agent who may
 * write, the reply window and the WhatsApp composer.
 */
export function BusinessChatPane({ session, canWrite, messages, onSend, onTyping, replyTo, onReplyDone, list, composer }: ConversationPaneProps) {
  const shown = useWaStatuses(session._id, messages);
  const customer = customerName(session);
  const messageList = list({
    messages: shown,
    // The customer (`wa:{wa_id}`) is no user: the chat names them.
    senderOf: (message) => (isCustomerId(message.src_id) ? { _id: message.src_id, name: customer, image: '' } : undefined),
    // A customer's reply names Meta's id of the message it answers.
    quoteOf: (message) => repliedTo(shown, message),
  });
  if (!canWrite) {
    // Visitors and members who may not write get the chat's composer, which says why.
    return (
      <>
        {messageList}
        {composer}
      </>
    );
  }
  return (
    <AgentPane session={session} onSend={onSend} onTyping={onTyping} replyTo={replyTo} onReplyDone={onReplyDone}>
      {messageList}
    </AgentPane>
  );
}

interface AgentPaneProps {
  session: Session;
  onSend: (draft: MessageDraft) => void;
  onTyping: () => void;
  /** The message the agent's next text answers, if they chose one. */
  replyTo: InboxMessage | null;
  onReplyDone: () => void;
  /** The message list. */
  children: ReactNode;
}

/** Around the messages: the window's countdown on top, the WhatsApp composer below. */
function AgentPane({ session, onSend, onTyping, replyTo, onReplyDone, children }: AgentPaneProps) {
  // The server moves the window's end with each message of the customer (a `session` update).
  const replyWindow = useReplyWindow(businessData(session)?.window_ends_at);
  return (
    <>
      <WindowStatus open={replyWindow.open} text={replyWindow.text} />
      {children}
      <BusinessComposer
        sessionId={session._id}
        windowOpen={replyWindow.open}
        onSend={onSend}
        onTyping={onTyping}
        replyTo={replyTo}
        onReplyDone={onReplyDone}
      />
    </>
  );
}
