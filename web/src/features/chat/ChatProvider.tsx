import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useCurrentUser } from '../../shared/session/currentUser';
import { ChatContext, type ChatWindowControls, type ChatWindowRequest } from '../../shared/chat/chatContext';
import { ChatKindsContext, type ChatKinds } from '../../shared/chat/kinds';
import { lookupSession } from '../../shared/chat/lookups';
import type { Session } from '../../shared/chat/types';
import { forgetWindow, rememberWindow, rememberWindowChange, rememberedWindow } from './chatMemory';
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
  // Set once a page opened a chat: the window of before a reload, restored later, gives way.
  const pageOpened = useRef(false);

  // One function for the provider's life: pages open chats from effects that depend on it.
  const openChat = useCallback(
    (request: ChatWindowRequest) => {
      pageOpened.current = true;
      opener.remember();
      // A new generation remounts the window, so its tabs and state start from the request.
      setOpened((current) => ({ request, generation: (current?.generation ?? 0) + 1 }));
      setMinimized(false);
      rememberWindow(request);
    },
    [opener],
  );
  const restore = useCallback((request: ChatWindowRequest, wasMinimized: boolean) => {
    if (pageOpened.current) return;
    setOpened({ request, generation: 0 });
    setMinimized(wasMinimized);
  }, []);
  const minimize = (value: boolean) => {
    setMinimized(value);
    rememberWindowChange({ minimized: value });
  };
  const close = () => {
    setOpened(null);
    forgetWindow();
    opener.refocus();
  };
  useRestoredWindow(restore);
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
            onMinimize={() => minimize(true)}
            onRestore={() => minimize(false)}
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

/**
 * Opens the window the tab showed before a reload (chatMemory), once the viewer is known, with
 * the chats as they are now; unless a page opened another meanwhile, or none of them can be
 * read any more.
 */
function useRestoredWindow(restore: (request: ChatWindowRequest, minimized: boolean) => void) {
  const { status } = useCurrentUser();
  const known = status === 'ready' || status === 'error';
  const [remembered] = useState(rememberedWindow);
  useEffect(() => {
    if (!known || !remembered) return undefined;
    let live = true;
    // As the server has them now; a chat not begun yet as it was (the server has none).
    const current = (shown: Session) => lookupSession(shown._id).then((found) => found ?? (shown.is_dummy ? shown : null));
    void Promise.all(remembered.sessions.map(current)).then((found) => {
      const sessions = found.filter((session): session is Session => session !== null);
      if (!live) return;
      if (sessions.length === 0) {
        forgetWindow();
        return;
      }
      const { title, image, itemId, activeId, minimized } = remembered;
      restore({ title, image, itemId, sessions, activeId: activeId ?? undefined }, minimized);
    });
    return () => {
      live = false;
    };
  }, [known, remembered, restore]);
}
