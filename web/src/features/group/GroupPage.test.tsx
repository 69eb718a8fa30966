import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FetchCall } from '../../test/fetchMock';
import { MAKE_GROUP_PUBLIC_CONFIRM, PUBLIC_GROUP_LABEL } from '../../shared/constants';
import type { Group } from '../../shared/entities/group';

const admin = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

const group = (fields: Partial<Group> = {}): Group => ({
  _id: 'g1',
  title: 'Bikes',
  description: '',
  image: '',
  is_public: false,
  is_read_allowed: false,
  write_permission: 20,
  created_at: 0,
  session_user_type: 10,
  can_write: true,
  data: { tags: ['red'], num_posts: 0, num_members: 1 },
  ...fields,
});

async function openGroupPage() {
  const calls = mockFetch((call: FetchCall) => {
    const path = call.url.pathname;
    if (path === '/user/me') return { body: { user: admin, guest_user: {} } };
    if (path === '/api/feed') return { body: { items: [], group: group(), has_more: false, next_cursor: null } };
    if (path === '/session/users') return { body: { session_users: [], has_more: false, cursor: null, session_users_count: 1 } };
    if (call.url.searchParams.get('action') === 'update') {
      const changes = call.body as { tags: string[]; is_public: boolean };
      return { body: { group: group({ is_public: changes.is_public, data: { tags: changes.tags, num_posts: 0, num_members: 1 } }) } };
    }
    return { body: { group: group() } };
  });
  // Imported after the module reset, so that each test starts with no signed-in user cached.
  const { GroupPage } = await import('./GroupPage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  const router = createMemoryRouter([{ path: '/group/:groupId', element: <GroupPage /> }], { initialEntries: ['/group/g1'] });
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
  return { calls, dialog: screen.getByRole('dialog', { name: 'Edit group' }) };
}

const updates = (calls: FetchCall[]) => calls.filter((call) => call.url.searchParams.get('action') === 'update');

describe('group editor', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.restoreAllMocks());

  const question = () => screen.findByRole('dialog', { name: MAKE_GROUP_PUBLIC_CONFIRM });

  it('asks in the styled dialog before making the group public and stays private when the admin declines', async () => {
    const browserConfirm = vi.spyOn(window, 'confirm');
    const { dialog } = await openGroupPage();
    const toggle = within(dialog).getByRole('switch', { name: PUBLIC_GROUP_LABEL });
    await userEvent.click(toggle);
    await userEvent.click(within(await question()).getByRole('button', { name: 'Cancel' }));
    expect((toggle as HTMLInputElement).checked).toBe(false);

    await userEvent.click(toggle);
    await userEvent.click(within(await question()).getByRole('button', { name: 'Confirm' }));
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(browserConfirm).not.toHaveBeenCalled();
  });

  it('turns public off without asking, and saves the choice', async () => {
    const { calls, dialog } = await openGroupPage();
    await userEvent.click(within(dialog).getByRole('switch', { name: PUBLIC_GROUP_LABEL }));
    await userEvent.click(within(await question()).getByRole('button', { name: 'Confirm' }));
    await userEvent.click(within(dialog).getByRole('switch', { name: PUBLIC_GROUP_LABEL }));
    expect(screen.queryByRole('dialog', { name: MAKE_GROUP_PUBLIC_CONFIRM })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.body).toMatchObject({ group_id: 'g1', is_public: false, is_read_allowed: false });
  });

  it('leads its admins to the group’s WhatsApp settings', async () => {
    await openGroupPage();
    expect(screen.getByRole('link', { name: 'WhatsApp', hidden: true }).getAttribute('href')).toBe('/group/g1/whatsapp');
  });

  it('refuses an image that is not an http(s) link', async () => {
    const { calls, dialog } = await openGroupPage();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Image' }), 'ftp://x.test/a.png');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toBeTruthy();
    expect(updates(calls)).toHaveLength(0);
  });

  it('offers the saved tags in the feed filter without a reload', async () => {
    const { dialog } = await openGroupPage();
    const tags = within(dialog).getByRole('textbox', { name: 'Tags' });
    await userEvent.clear(tags);
    await userEvent.type(tags, 'red, blue');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: '#blue' })).toBeTruthy();
  });
});
