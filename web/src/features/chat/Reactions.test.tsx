import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { REACTION_QUICK } from './constants';
import type { ChatMessage } from '../../shared/chat/types';
import { MessageBubble } from './MessageBubble';
import { Reactions } from './Reactions';

const message: ChatMessage = {
  id: 'm1',
  dest_session_id: 'g1',
  src_id: 'u1',
  local_id: 'l1',
  created_at: 5,
  type: 1003,
  payload: 'Market on Saturday?',
  payload1: [],
  flags: { status: 'sent' },
  data: { reactions: { me: '👍', u3: '👍', u4: '😂' } },
};

describe('reactions under a message', () => {
  it('shows each emoji once with its count, the viewer\'s own marked; a tap chooses it, a right click asks who', () => {
    const onToggle = vi.fn();
    const onShowWho = vi.fn();
    render(<Reactions reactions={message.data.reactions ?? {}} meId="me" onToggle={onToggle} onShowWho={onShowWho} />);
    const chips = within(screen.getByRole('list', { name: 'Reactions' })).getAllByRole('button');
    expect(chips.map((chip) => [chip.getAttribute('aria-label'), chip.getAttribute('aria-pressed')])).toEqual([
      ['👍 2', 'true'],
      ['😂 1', 'false'],
    ]);
    fireEvent.click(chips[1] as HTMLElement);
    expect(onToggle).toHaveBeenCalledWith('😂');
    fireEvent.contextMenu(chips[0] as HTMLElement);
    expect(onShowWho).toHaveBeenCalledWith('👍');
  });

  it('are only shown to a viewer with nothing to do with them (a WhatsApp chat\'s)', () => {
    render(<Reactions reactions={{ a: '🙏' }} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('listitem', { name: '🙏 1' })).toBeTruthy();
  });

  it('offer the quick set atop the message\'s menu, marking the viewer\'s own, and "+" for more', () => {
    const onReact = vi.fn();
    const onMore = vi.fn();
    const onShowWho = vi.fn();
    render(
      <MemoryRouter>
        <MessageBubble
        message={message}
        sender={{ _id: 'u1', name: 'Ada', image: '' }}
        own={false}
        onInfo={null}
        onRetry={() => undefined}
        reactions={{ meId: 'me', onReact, onMore, onShowWho }}
        />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Message menu' }));
    const bar = screen.getByRole('group', { name: 'React' });
    const quick = within(bar).getAllByRole('menuitemcheckbox');
    expect(quick.map((button) => button.textContent)).toEqual([...REACTION_QUICK]);
    expect(within(bar).getByRole('menuitemcheckbox', { name: 'React with 👍' }).getAttribute('aria-checked')).toBe('true');
    expect(document.activeElement).toBe(quick[0]);
    fireEvent.click(within(bar).getByRole('menuitemcheckbox', { name: 'React with 😮' }));
    expect(onReact).toHaveBeenCalledWith('😮');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Message menu' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'More reactions' }));
    expect(onMore).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Message menu' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Who reacted' }));
    expect(onShowWho).toHaveBeenCalledWith(null);
  });
});
