import type { ReactNode } from 'react';
import type { InboxMessage, Session } from '../chat/chatApi';
import type { MessageDraft } from '../chat/messages';
import { windowEndsAt } from './businessChat';
import { BusinessComposer } from './BusinessComposer';
import { useReplyWindow } from './useReplyWindow';
import { WindowStatus } from './WindowStatus';

interface BusinessChatPaneProps {
  session: Session;
  messages: readonly InboxMessage[];
  onSend: (draft: MessageDraft) => void;
  onTyping: () => void;
  /** The message list. */
  children: ReactNode;
}

/** A business chat around its messages: the window's countdown on top, the WhatsApp composer below. */
export function BusinessChatPane({ session, messages, onSend, onTyping, children }: BusinessChatPaneProps) {
  const replyWindow = useReplyWindow(windowEndsAt(session, messages));
  return (
    <>
      <WindowStatus open={replyWindow.open} text={replyWindow.text} />
      {children}
      <BusinessComposer sessionId={session._id} windowOpen={replyWindow.open} onSend={onSend} onTyping={onTyping} />
    </>
  );
}
