import { useMemo, useState, type ReactNode } from 'react';
import { useCurrentUser } from '../../shared/session/currentUser';
import { ChatContext, type ChatWindowControls, type ChatWindowRequest } from '../../shared/chat/chatContext';
import { ChatWindow } from './ChatWindow';
import { useUnseenSync } from './useUnseenSync';

/** Hosts the one chat window, which any page opens through useChatWindow(). */
export function ChatProvider({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  useUnseenSync(user?._id ?? null);
  const [opened, setOpened] = useState<{ request: ChatWindowRequest; generation: number } | null>(null);
  const [minimized, setMinimized] = useState(false);

  const controls = useMemo<ChatWindowControls>(
    () => ({
      openChat(request) {
        // A new generation remounts the window, so its tabs and state start from the request.
        setOpened((current) => ({ request, generation: (current?.generation ?? 0) + 1 }));
        setMinimized(false);
      },
    }),
    [],
  );

  return (
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
  );
}
