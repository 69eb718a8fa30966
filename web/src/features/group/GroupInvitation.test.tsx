import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FetchCall } from '../../test/fetchMock';
import { INVALID_GROUP_TEXT } from '../../shared/constants';

const eve = { _id: 'u2', name: 'Eve', image: '', phone_number: null, email_id: 'eve@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };
const notViewable = { status: 404, body: { errors: { invalid_group: INVALID_GROUP_TEXT } } };
const invitation = { _id: 'g1', title: 'Night owls', image: '', is_public: false, is_read_allowed: false };

/** /group/g1 of a private group Eve may not read, as a visitor or signed in (`known`: the group exists). */
async function openGroupLink({ signedIn = true, known = true, asked = false } = {}) {
  const calls = mockFetch((call: FetchCall) => {
    const action = call.url.searchParams.get('action');
    if (call.url.pathname === '/user/me') return { body: { user: signedIn ? eve : null, guest_user: {} } };
    if (call.url.pathname === '/api/feed') return notViewable;
    if (action === 'invitation') return known ? { body: { group: invitation, group_membership: asked ? { session_user_type: 30 } : null } } : notViewable;
    if (action === 'join') return { body: { group: null, group_membership: { session_user_type: 30 } } };
    return notViewable;
  });
  const { GroupPage } = await import('./GroupPage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  const router = createMemoryRouter([{ path: '/group/:groupId', element: <GroupPage /> }], { initialEntries: ['/group/g1'] });
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  return calls;
}

describe('a private group’s link', () => {
  beforeEach(() => vi.resetModules());

  it('shows a signed-in person which group it is, and their request once asked', async () => {
    const calls = await openGroupLink();
    expect(await screen.findByRole('heading', { level: 1, name: 'Night owls' })).toBeTruthy();
    expect(screen.getByText('Private')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Ask to join' }));
    expect((await screen.findByText('Awaiting approval')).getAttribute('role')).toBe('status');
    expect(screen.queryByRole('button', { name: 'Ask to join' })).toBeNull();
    expect(calls.filter((call) => call.url.searchParams.get('action') === 'join')).toHaveLength(1);
    // Nothing of the group's content is asked for, let alone shown.
    expect(calls.some((call) => call.url.pathname === '/session/users')).toBe(false);
  });

  it('says a request already made is awaiting approval', async () => {
    await openGroupLink({ asked: true });
    expect((await screen.findByText('Awaiting approval')).getAttribute('role')).toBe('status');
    expect(screen.queryByRole('button', { name: 'Ask to join' })).toBeNull();
  });

  it('keeps the spec’s sentence for an id that names no group', async () => {
    await openGroupLink({ known: false });
    expect(await screen.findByText(INVALID_GROUP_TEXT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask to join' })).toBeNull();
  });

  it('asks a visitor to log in first, the same for every id', async () => {
    const calls = await openGroupLink({ signedIn: false });
    expect(await screen.findByText(INVALID_GROUP_TEXT)).toBeTruthy();
    expect(screen.getByText('Invited to a private group? Log in to ask to join.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(calls.some((call) => call.url.searchParams.get('action') === 'invitation')).toBe(false);
  });
});
