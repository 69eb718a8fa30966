/** How long a message gone to stays marked. */
const MARKED_MS = 1600;

/**
 * Shows the message of this created_at in the chat's list under `root`, centred and marked
 * for a moment; false when it is not loaded. The one way to go to a message: the mention
 * button uses it, and opening a chat at a message (a search result) may.
 */
export function goToMessage(root: ParentNode | null, createdAt: number): boolean {
  const bubble = root?.querySelector<HTMLElement>(`[data-testid="message-list"] [data-created-at="${createdAt}"]`);
  if (!bubble) return false;
  bubble.scrollIntoView({ block: 'center', behavior: 'smooth' });
  bubble.dataset.goneTo = '';
  setTimeout(() => delete bubble.dataset.goneTo, MARKED_MS);
  return true;
}
