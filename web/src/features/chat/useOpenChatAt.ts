import { useCallback } from 'react';
import { useChatWindow } from '../../shared/chat/chatContext';
import { lookupSession } from '../../shared/chat/lookups';

/**
 * Opens a chat at one of its messages (its created_at): the window shows it with what came
 * before and after, marked a moment, and "Jump to present" leads back to the newest. For pins,
 * mentions and anything else that names a message. Resolves false when the chat cannot be read.
 */
export function useOpenChatAt(): (sessionId: string, createdAt: number) => Promise<boolean> {
  const { openChat } = useChatWindow();
  return useCallback(
    async (sessionId: string, createdAt: number) => {
      const session = await lookupSession(sessionId);
      if (!session) return false;
      openChat({ title: session.title, image: session.image, sessions: [session], activeId: session._id, at: createdAt });
      return true;
    },
    [openChat],
  );
}
