import { render } from '@testing-library/react';
import { useEffect, type ComponentProps, type ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { chatPlugins } from '../app/chatPlugins';
import { MessageBubble } from '../features/chat/MessageBubble';
import { MessageInfoDialog } from '../features/chat/MessageInfoDialog';
import type { ChatWindowRequest } from '../shared/chat/chatContext';
import { ChatKindsContext } from '../shared/chat/kinds';

/**
 * Renders the app's chat provider, with the app's chat plug-ins, and opens its window on
 * `request`. The modules are imported here, after the test's `vi.resetModules()`, so each
 * test gets a fresh chat state.
 */
export async function renderChatWindow(request: ChatWindowRequest) {
  const { ChatProvider } = await import('../features/chat');
  const { chatPlugins: plugins } = await import('../app/chatPlugins');
  const { useChatWindow } = await import('../shared/chat/chatContext');
  const { UiProvider } = await import('../shared/ui/UiProvider');
  function Opener() {
    const { openChat } = useChatWindow();
    useEffect(() => openChat(request), [openChat]);
    return null;
  }
  render(
    <MemoryRouter>
      <UiProvider>
        <ChatProvider kinds={plugins}>
          <Opener />
        </ChatProvider>
      </UiProvider>
    </MemoryRouter>,
  );
}

/** `ui` as the app's chat draws it: with its plug-ins' message kinds. */
function renderInAppChat(ui: ReactElement) {
  // In a router: people's names in a chat lead to their profiles.
  return render(
    <MemoryRouter>
      <ChatKindsContext.Provider value={chatPlugins}>{ui}</ChatKindsContext.Provider>
    </MemoryRouter>,
  );
}

/** One chat bubble, for tests of a plug-in's message kinds. */
export function renderMessageBubble(props: ComponentProps<typeof MessageBubble>) {
  return renderInAppChat(<MessageBubble {...props} />);
}

/** The message info view, for tests of what a plug-in's kind adds to it. */
export function renderMessageInfo(props: ComponentProps<typeof MessageInfoDialog>) {
  return renderInAppChat(<MessageInfoDialog {...props} />);
}
