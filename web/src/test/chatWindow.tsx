import { render } from '@testing-library/react';
import { useEffect } from 'react';
import type { ChatWindowRequest } from '../shared/chat/chatContext';

/**
 * Renders the app's chat provider and opens its window on `request`. The modules are
 * imported here, after the test's `vi.resetModules()`, so each test gets a fresh chat state.
 */
export async function renderChatWindow(request: ChatWindowRequest) {
  const { ChatProvider } = await import('../features/chat/ChatProvider');
  const { useChatWindow } = await import('../shared/chat/chatContext');
  const { UiProvider } = await import('../shared/ui/UiProvider');
  function Opener() {
    const { openChat } = useChatWindow();
    useEffect(() => openChat(request), [openChat]);
    return null;
  }
  render(
    <UiProvider>
      <ChatProvider>
        <Opener />
      </ChatProvider>
    </UiProvider>,
  );
}
