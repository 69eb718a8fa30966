import { act, fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../test/fetchMock';
import { UiProvider } from '../shared/ui/UiProvider';
import { routes } from './routes';

function renderShell(path = '/profile') {
  mockFetch(() => ({ body: { user: null, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } }));
  render(
    <UiProvider>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
    </UiProvider>,
  );
  return {
    toggle: () => screen.getByRole('button', { name: 'Menu' }),
    menu: () => screen.getByRole('complementary', { name: 'Side menu', hidden: true }),
  };
}

/** A touch gesture; jsdom stamps both events within the same few milliseconds, so it is quick. */
function swipe(fromX: number, toX: number) {
  act(() => {
    fireEvent.touchStart(window, { touches: [{ clientX: fromX, clientY: 300 }] });
    fireEvent.touchEnd(window, { changedTouches: [{ clientX: toX, clientY: 300 }] });
  });
}

describe('shell on a narrow screen', () => {
  it('opens the drawer from the toggle and closes it from the overlay', async () => {
    const { toggle, menu } = renderShell();
    await screen.findByRole('heading', { name: 'You are not logged in' });
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect(menu().hasAttribute('inert')).toBe(true);

    fireEvent.click(toggle());
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    expect(menu().hasAttribute('inert')).toBe(false);

    fireEvent.click(screen.getByTestId('menu-overlay'));
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
  });

  it('opens on a swipe from the left edge and closes on a swipe to the left', async () => {
    const { toggle } = renderShell();
    await screen.findByRole('heading', { name: 'You are not logged in' });
    swipe(200, 350);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    swipe(5, 150);
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    swipe(240, 60);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the drawer after a menu choice', async () => {
    const { toggle } = renderShell();
    fireEvent.click(toggle());
    fireEvent.click(screen.getByRole('link', { name: 'About' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Find customers in your city' })).toBeTruthy();
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
  });
});

describe('side menu', () => {
  it('lights only Change Location when no city is remembered (Feed leads to the same page)', async () => {
    renderShell('/select/city');
    await screen.findByRole('heading', { name: 'Please Select your City' });
    const menu = screen.getByRole('navigation', { name: 'Main menu', hidden: true });
    const current = Array.from(menu.querySelectorAll('[aria-current="page"]')).map((link) => link.textContent);
    expect(current).toEqual(['Change Location']);
  });

  it('tells a visitor on Chats that logging in shows their chats', async () => {
    renderShell('/chats');
    await screen.findByRole('heading', { name: 'You are not logged in' });
    expect(screen.getByText('Log in to see your chats and the people you talk with.')).toBeTruthy();
  });
});
