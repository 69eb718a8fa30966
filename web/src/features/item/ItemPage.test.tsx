import { act, fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import type { Group } from '../../shared/entities/group';
import type { Item } from '../../shared/entities/item';

const viewer = { _id: 'u2', name: 'Vera', image: '', phone_number: null, email_id: 'v@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };
const item = { _id: 'i1', title: 'Lend a ladder', user_id: 'u1', group_id: 'g1', route_id: 'r1', created_at: 0, files: [], tags: [] } as unknown as Item;
const group = { _id: 'g1', title: 'Amsterdam' } as Group;

async function renderRoutes(path: string, signedIn: () => boolean = () => true) {
  const calls = mockFetch((call) => {
    if (call.url.pathname === '/user/me') return { body: { user: signedIn() ? viewer : null, guest_user: {} } };
    if (call.url.pathname === '/api/r/r1' && call.url.searchParams.get('action') === 'share') return { body: { url: 'https://agora.test/r/vera1', route_id: 'vera1' } };
    if (call.url.pathname === '/api/r/r1') return { body: { item, group, route_users: [] } };
    return { body: {} };
  });
  const { routes } = await import('../../app/routes');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  render(
    <UiProvider>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
    </UiProvider>,
  );
  return calls;
}

describe('post page', () => {
  beforeEach(() => vi.resetModules());

  it('reads the post once for a signed-in viewer', async () => {
    const calls = await renderRoutes('/r/r1');
    await screen.findByRole('heading', { level: 1, name: 'Lend a ladder' });
    await screen.findByRole('button', { name: 'Chat' });
    expect(calls.filter((call) => call.url.pathname === '/api/r/r1')).toHaveLength(1);
  });

  it('copies the link of a Share pressed before logging in once logged in, or shows it when the browser refuses the clipboard', async () => {
    // Browsers refuse a clipboard write long after the tap (the login came between), and allow the next tap's.
    const writeText = vi.fn().mockRejectedValueOnce(new DOMException('Write permission denied.', 'NotAllowedError')).mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    let signedIn = false;
    const calls = await renderRoutes('/r/r1', () => signedIn);
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    // The login dialog opened (the app's, outside these routes); nothing was shared yet.
    expect(calls.filter((call) => call.url.searchParams.get('action') === 'share')).toHaveLength(0);
    signedIn = true;
    const { setAuthKey } = await import('../../shared/session/authKey');
    await act(async () => setAuthKey('key-of-vera'));

    const link = (await screen.findByRole('textbox', { name: 'Your share link' })) as HTMLInputElement;
    expect(link.value).toBe('https://agora.test/r/vera1');
    expect(calls.filter((call) => call.url.searchParams.get('action') === 'share')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByRole('button', { name: 'Link Copied' })).toBeTruthy();
    expect(writeText).toHaveBeenLastCalledWith('https://agora.test/r/vera1');
    expect(screen.queryByRole('textbox', { name: 'Your share link' })).toBeNull();
    vi.unstubAllGlobals();
  });
});
