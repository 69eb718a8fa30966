import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useCurrentUser } from '../../shared/session/currentUser';
import { ChatContext, type ChatWindowControls, type ChatWindowRequest } from '../../shared/chat/chatContext';
import { ChatKindsContext, type ChatKinds } from '../../shared/chat/kinds';
import { ChatWindow } from './ChatWindow';
import { useUnseenSync } from './useUnseenSync';

/**
 * Hosts the one chat window, which any page opens through useChatWindow(). `kinds`: what the
 * app's plug-ins add to the chat (src/app/chatPlugins.ts).
 */
export function ChatProvider({ kinds, children }: { kinds: ChatKinds; children: ReactNode }) {
  const { user } = useCurrentUser();
  useUnseenSync(user?._id ?? null);
  const [opened, setOpened] = useState<{ request: ChatWindowRequest; generation: number } | null>(null);
  const [minimized, setMinimized] = useState(false);

  // One function for the provider's life: pages open chats from effects that depend on it.
  const openChat = useCallback((request: ChatWindowRequest) => {
    // A new generation remounts the window, so its tabs and state start from the request.
    setOpened((current) => ({ request, generation: (current?.generation ?? 0) + 1 }));
    setMinimized(false);
  }, []);
  const windowShown = opened !== null && !minimized;
  const controls = useMemo<ChatWindowControls>(() => ({ openChat, windowShown }), [openChat, windowShown]);

  return (
    <ChatKindsContext.Provider value={kinds}>
      <ChatContext.Provider value={controls}>
        {children}
        {opened && (
          <ChatWindow
            key={opened.generation}
            request={opened.request}
            minimized={minimized}
            onMinimize={() => setMinimized(true)}
            onRestore={() => setMinimized(false)}
            onClose={() => setOpened(null)}
          />
        )}
      </ChatContext.Provider>
    </ChatKindsContext.Provider>
  );
}
