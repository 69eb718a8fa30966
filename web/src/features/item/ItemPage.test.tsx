import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import type { Group } from '../../shared/entities/group';
import type { Item } from '../../shared/entities/item';

const viewer = { _id: 'u2', name: 'Vera', image: '', phone_number: null, email_id: 'v@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };
const item = { _id: 'i1', title: 'Lend a ladder', user_id: 'u1', group_id: 'g1', route_id: 'r1', created_at: 0, files: [], tags: [] } as unknown as Item;
const group = { _id: 'g1', title: 'Amsterdam' } as Group;

async function renderRoutes(path: string) {
  const calls = mockFetch((call) => {
    if (call.url.pathname === '/user/me') return { body: { user: viewer, guest_user: {} } };
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
});
