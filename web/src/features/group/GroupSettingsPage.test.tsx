import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FetchCall } from '../../test/fetchMock';
import { ADMINS_ONLY_SETTINGS_TEXT, MAKE_GROUP_PUBLIC_CONFIRM, PUBLIC_GROUP_LABEL } from './constants';
import { blockMemberConfirm, makeModeratorConfirm } from '../../shared/constants';
import type { Group } from '../../shared/entities/group';

const admin = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };
const member = { session_id: 'g1', user_id: 'u2', session_user_type: 20, notification_flag: 20, user: { _id: 'u2', name: 'Milo', image: '' }, data: {} };

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
  data: { tags: ['red'], num_posts: 0, num_members: 2 },
  ...fields,
});

async function openSettings(viewerType = 10) {
  const calls = mockFetch((call: FetchCall) => {
    const path = call.url.pathname;
    if (path === '/user/me') return { body: { user: admin, guest_user: {} } };
    if (path === '/session/users') return { body: { session_users: [member], has_more: false, cursor: null, session_users_count: 2 } };
    if (path === '/session/user/update') return { body: { is_user_in_session: true, session_user: { ...member, session_user_type: 15 } } };
    if (call.url.searchParams.get('action') === 'update') return { body: { group: group() } };
    return { body: { group: group({ session_user_type: viewerType }) } };
  });
  // Imported after the module reset, so that each test starts with no signed-in user cached.
  const { GroupSettingsPage } = await import('./GroupSettingsPage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  const router = createMemoryRouter([{ path: '/group/:groupId/settings', element: <GroupSettingsPage /> }], { initialEntries: ['/group/g1/settings'] });
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  return calls;
}

const updates = (calls: FetchCall[]) => calls.filter((call) => call.url.searchParams.get('action') === 'update');
const question = (text: string) => screen.findByRole('dialog', { name: text });

describe('group settings', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.restoreAllMocks());

  it('asks in the styled dialog before making the group public and stays private when the admin declines', async () => {
    const browserConfirm = vi.spyOn(window, 'confirm');
    await openSettings();
    const toggle = await screen.findByRole('switch', { name: PUBLIC_GROUP_LABEL });
    await userEvent.click(toggle);
    await userEvent.click(within(await question(MAKE_GROUP_PUBLIC_CONFIRM)).getByRole('button', { name: 'Cancel' }));
    expect((toggle as HTMLInputElement).checked).toBe(false);

    await userEvent.click(toggle);
    await userEvent.click(within(await question(MAKE_GROUP_PUBLIC_CONFIRM)).getByRole('button', { name: 'Confirm' }));
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(browserConfirm).not.toHaveBeenCalled();
  });

  it('saves who may write with the rest, and turns public off without asking', async () => {
    const calls = await openSettings();
    const toggle = await screen.findByRole('switch', { name: PUBLIC_GROUP_LABEL });
    await userEvent.click(toggle);
    await userEvent.click(within(await question(MAKE_GROUP_PUBLIC_CONFIRM)).getByRole('button', { name: 'Confirm' }));
    await userEvent.click(toggle);
    expect(screen.queryByRole('dialog', { name: MAKE_GROUP_PUBLIC_CONFIRM })).toBeNull();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Who may write' }), 'Admins only');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.body).toMatchObject({ group_id: 'g1', is_public: false, is_read_allowed: false, write_permission: 10, tags: ['red'] });
  });

  it('leads to the group’s WhatsApp settings', async () => {
    await openSettings();
    expect((await screen.findByRole('link', { name: 'WhatsApp settings' })).getAttribute('href')).toBe('/group/g1/whatsapp');
  });

  it('lists each member’s role, and asks before making one a moderator', async () => {
    const calls = await openSettings();
    const row = (await screen.findByText('Milo')).closest('li')!;
    expect(within(row).getByText('Member')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Make moderator' }));
    await userEvent.click(within(await question(makeModeratorConfirm('Milo'))).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.url.pathname === '/session/user/update')).toHaveLength(0);

    await userEvent.click(within(row).getByRole('button', { name: 'Make moderator' }));
    await userEvent.click(within(await question(makeModeratorConfirm('Milo'))).getByRole('button', { name: 'Confirm' }));
    await within(row).findByText('Moderator');
    expect(calls.find((call) => call.url.pathname === '/session/user/update')?.body).toEqual({ session_id: 'g1', for_user_id: 'u2', action: 'make_moderator' });
  });

  it('asks before blocking a member, in the same dialog as making a moderator (issue 42)', async () => {
    const calls = await openSettings();
    const row = (await screen.findByText('Milo')).closest('li')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Block' }));
    await userEvent.click(within(await question(blockMemberConfirm('Milo'))).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.url.pathname === '/session/user/update')).toHaveLength(0);

    await userEvent.click(within(row).getByRole('button', { name: 'Block' }));
    await userEvent.click(within(await question(blockMemberConfirm('Milo'))).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.find((call) => call.url.pathname === '/session/user/update')?.body).toEqual({ session_id: 'g1', for_user_id: 'u2', action: 'block' }));
  });

  it('tells a member who is not its admin that only admins change it', async () => {
    await openSettings(20);
    expect(await screen.findByText(ADMINS_ONLY_SETTINGS_TEXT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
