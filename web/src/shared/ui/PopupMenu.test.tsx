import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PopupMenu } from './PopupMenu';

function renderMenu(onSelect = vi.fn()) {
  render(
    <>
      <PopupMenu
        label="Actions"
        trigger="…"
        triggerClassName={(open) => (open ? 'open' : 'closed')}
        menuLabel="Things to do"
        menuClassName=""
        itemClassName=""
        items={[
          { key: 'a', content: 'First', onSelect },
          { key: 'b', content: 'Second', onSelect: vi.fn() },
        ]}
      />
      <button type="button">Elsewhere</button>
    </>,
  );
  return onSelect;
}

describe('PopupMenu', () => {
  it('opens a labelled menu with the focus on its first item; choosing an item acts and closes it', () => {
    const onSelect = renderMenu();
    const trigger = screen.getByRole('button', { name: 'Actions' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(trigger);
    const menu = screen.getByRole('menu', { name: 'Things to do' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(trigger.className).toBe('open');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'First' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'First' }));
    expect(onSelect).toHaveBeenCalledOnce();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes on Escape and when the focus leaves it', () => {
    renderMenu();
    const trigger = screen.getByRole('button', { name: 'Actions' });
    fireEvent.click(trigger);
    fireEvent.keyDown(screen.getByRole('menuitem', { name: 'First' }), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(trigger);
    fireEvent.blur(screen.getByRole('menuitem', { name: 'First' }), { relatedTarget: screen.getByRole('button', { name: 'Elsewhere' }) });
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
