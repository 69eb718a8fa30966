import type { ReactNode } from 'react';
import type { InboxMessage, MessageDraft, Session } from '../../shared/chat/types';
import { BusinessComposer } from './BusinessComposer';
import { useReplyWindow } from './useReplyWindow';
import { WindowStatus } from './WindowStatus';

interface BusinessChatPaneProps {
  session: Session;
  onSend: (draft: MessageDraft) => void;
  onTyping: () => void;
  /** The message the agent's next text answers, if they chose one. */
  replyTo: InboxMessage | null;
  onReplyDone: () => void;
  /** The message list. */
  children: ReactNode;
}

/** A business chat around its messages: the window's countdown on top, the WhatsApp composer below. */
export function BusinessChatPane({ session, onSend, onTyping, replyTo, onReplyDone, children }: BusinessChatPaneProps) {
  // The server moves the window's end with each message of the customer (a `session` update).
  const replyWindow = useReplyWindow(session.data.whatsapp?.window_ends_at);
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
