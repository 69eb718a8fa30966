import { act, fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { STORAGE_KEYS } from '../../shared/constants';

const ada = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

/** The landing page, for a visitor who logs in when asked; the post form and the city picker stand in as pages. */
async function openLanding() {
  let signedIn = false;
  mockFetch((call) => (call.url.pathname === '/user/me' ? { body: { user: signedIn ? ada : null, guest_user: {} } } : { body: {} }));
  const { LandingPage } = await import('./LandingPage');
  const { appEvents } = await import('../../shared/events');
  const { setAuthKey } = await import('../../shared/session/authKey');
  const loginAsked = vi.fn();
  appEvents.on('do_login', loginAsked);
  const router = createMemoryRouter(
    [
      { path: '/landing', element: <LandingPage /> },
      { path: '/create/item/:groupId', element: <p>The post form</p> },
      { path: '/select/city', element: <p>Choose a city</p> },
    ],
    { initialEntries: ['/landing'] },
  );
  render(<RouterProvider router={router} />);
  const logIn = async () => {
    signedIn = true;
    await act(async () => setAuthKey('key-of-ada'));
  };
  return { router, loginAsked, logIn };
}

describe('Post something on the landing page', () => {
  beforeEach(() => vi.resetModules());

  it('asks a visitor to log in, then opens the post form of their city without a second press', async () => {
    window.localStorage.setItem(STORAGE_KEYS.groupId, 'amsterdam-nl');
    const { router, loginAsked, logIn } = await openLanding();
    fireEvent.click(await screen.findByRole('button', { name: 'Post something' }));
    expect(loginAsked).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/landing');
    await logIn();
    expect(await screen.findByText('The post form')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/create/item/amsterdam-nl');
  });

  it('has someone with no city yet choose one on the way to the form', async () => {
    const { router, logIn } = await openLanding();
    fireEvent.click(await screen.findByRole('button', { name: 'Post something' }));
    await logIn();
    expect(await screen.findByText('Choose a city')).toBeTruthy();
    expect(router.state.location.search).toBe('?next=post');
  });
});
