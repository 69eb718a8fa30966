import type { Socket } from 'socket.io-client';
import { DELIVERED_RECEIPT_MS, DELIVERED_RECEIPT_SPREAD_MS } from './constants';
import type { ChatMessage, InboxMessage } from '../../shared/chat/types';
import { raiseStatus } from './messages';

/** What a receipt says of the messages up to the one it names. */
export type ReceiptStatus = 'delivered' | 'read';

/**
 * Tells senders that this screen received their messages, wherever it is (a chat need not be
 * open): one `delivered` receipt per chat for the newest message of a short window, since a
 * receipt covers every message up to the one it names. The window's length varies a little
 * from screen to screen, so that a big group's receipts do not reach the server all at once.
 */
export function deliveredReceipts(socket: Socket, meId: string): (message: InboxMessage) => void {
  const newest = new Map<string, number>();
  return (message) => {
    if (message.src_id === meId) return;
    const sessionId = message.dest_session_id;
    const pending = newest.get(sessionId);
    newest.set(sessionId, Math.max(pending ?? 0, message.created_at));
    if (pending !== undefined) return;
    setTimeout(() => {
      const createdAt = newest.get(sessionId);
      newest.delete(sessionId);
      if (socket.connected) socket.emit('delivered', { session_id: sessionId, created_at: createdAt });
    }, DELIVERED_RECEIPT_MS + Math.random() * DELIVERED_RECEIPT_SPREAD_MS);
  };
}

/**
 * Own messages after news from another member: a receipt of theirs covers every message up
 * to the one it names, and a message of theirs shows they read what came before it (the
 * server counts a sender's reply as reading, so a reload shows the same).
 */
export function raiseOwnStatuses(
  messages: readonly ChatMessage[],
  meId: string | null,
  from: string,
  upTo: number,
  status: ReceiptStatus,
): ChatMessage[] {
  if (from === meId) return messages as ChatMessage[];
  return messages.map((message) => (message.src_id === meId && !message.local && message.created_at <= upTo ? raiseStatus(message, status) : message));
}
