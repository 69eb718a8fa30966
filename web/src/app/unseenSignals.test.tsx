import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetchMock';
import { titleWithCount } from './unseenSignals';

const me = (unseen: number) => ({
  _id: 'u1',
  name: 'Ada',
  image: '',
  phone_number: null,
  email_id: 'a@x.test',
  data: { notifications_unseen_count: unseen },
  created_at: 0,
});

const BASE_TITLE = 'Agora: find customers in your city';

async function renderSignedIn(unseen: number) {
  mockFetch((call) => (call.url.pathname === '/user/me' ? { body: { user: me(unseen), guest_user: {} } } : { body: {} }));
  const { routes } = await import('./routes');
  const { UiProvider } = await import('../shared/ui/UiProvider');
  render(
    <UiProvider>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/landing'] })} />
    </UiProvider>,
  );
}

describe('the tab title', () => {
  it('puts the count in front, replaces an older one and drops it at zero', () => {
    expect(titleWithCount(BASE_TITLE, 3)).toBe(`(3) ${BASE_TITLE}`);
    expect(titleWithCount(`(3) ${BASE_TITLE}`, 120)).toBe(`(99+) ${BASE_TITLE}`);
    expect(titleWithCount(`(99+) ${BASE_TITLE}`, 0)).toBe(BASE_TITLE);
  });
});

describe('unseen activity where the eye is', () => {
  const setAppBadge = vi.fn(async () => undefined);
  const clearAppBadge = vi.fn(async () => undefined);
  beforeEach(() => {
    vi.resetModules();
    document.title = BASE_TITLE;
    Object.assign(navigator, { setAppBadge, clearAppBadge });
  });
  afterEach(() => {
    setAppBadge.mockClear();
    clearAppBadge.mockClear();
  });

  it('shows the count on the menu button, in the tab title and on the app icon', async () => {
    await renderSignedIn(3);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await waitFor(() => expect(screen.getByTestId('menu-unseen-badge').textContent).toBe('3'));
    expect(menu.getAttribute('aria-describedby')).toBe('menu-unseen');
    expect(document.getElementById('menu-unseen')?.textContent).toBe('3 unseen notifications');
    expect(document.title).toBe(`(3) ${BASE_TITLE}`);
    expect(setAppBadge).toHaveBeenLastCalledWith(3);
  });

  it('shows nothing and clears the app icon when all is seen', async () => {
    await renderSignedIn(0);
    await waitFor(() => expect(clearAppBadge).toHaveBeenCalled());
    expect(screen.queryByTestId('menu-unseen-badge')).toBeNull();
    expect(document.title).toBe(BASE_TITLE);
    expect(setAppBadge).not.toHaveBeenCalled();
  });
});
