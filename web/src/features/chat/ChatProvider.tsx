import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useCurrentUser } from '../../shared/session/currentUser';
import { ChatContext, type ChatWindowControls, type ChatWindowRequest } from '../../shared/chat/chatContext';
import { ChatKindsContext, type ChatKinds } from '../../shared/chat/kinds';
import { CHAT_WINDOW_ATTRIBUTE, ChatWindow } from './ChatWindow';
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

  const opener = useOpener();

  // One function for the provider's life: pages open chats from effects that depend on it.
  const openChat = useCallback(
    (request: ChatWindowRequest) => {
      opener.remember();
      // A new generation remounts the window, so its tabs and state start from the request.
      setOpened((current) => ({ request, generation: (current?.generation ?? 0) + 1 }));
      setMinimized(false);
    },
    [opener],
  );
  const close = () => {
    setOpened(null);
    opener.refocus();
  };
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
            onClose={close}
          />
        )}
      </ChatContext.Provider>
    </ChatKindsContext.Provider>
  );
}

/**
 * What opened the chat window, to give focus back to when it closes (Escape left it on the
 * page's <body>): the control focused when the window was asked for, or, when a request
 * took a moment and its busy button gave focus up meanwhile, the last one focused before.
 */
function useOpener() {
  const lastFocused = useRef<HTMLElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && !event.target.closest(`[${CHAT_WINDOW_ATTRIBUTE}]`)) lastFocused.current = event.target;
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, []);
  return useMemo(
    () => ({
      remember() {
        const active = document.activeElement;
        const outside = active instanceof HTMLElement && active !== document.body && !active.closest(`[${CHAT_WINDOW_ATTRIBUTE}]`);
        opener.current = outside ? active : lastFocused.current;
      },
      refocus() {
        const back = opener.current;
        opener.current = null;
        if (back?.isConnected) back.focus();
      },
    }),
    [],
  );
}
