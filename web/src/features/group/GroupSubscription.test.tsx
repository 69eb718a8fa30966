import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import type { Group } from '../../shared/entities/group';
import { serve } from '../../test/standIns';

const leaveAppFor = vi.fn();
serve({ leaveAppFor });

const group = (sessionUserType: number | null, subscriptionStatus?: number): Group => ({
  _id: 'g1',
  title: 'Bikes',
  description: '',
  image: '',
  is_public: true,
  is_read_allowed: true,
  write_permission: 20,
  created_at: 0,
  session_user_type: sessionUserType,
  can_write: true,
  data: { tags: [], num_posts: 0, num_members: 1, subscription_status: subscriptionStatus },
});

async function renderFor(value: Group) {
  const calls = mockFetch(() => ({ body: { redirect_url: 'https://billing.example/g1' } }));
  const { GroupSubscription } = await import('./GroupSubscription');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  render(
    <UiProvider>
      <GroupSubscription group={value} />
    </UiProvider>,
  );
  return calls;
}

describe('group subscription link', () => {
  beforeEach(() => {
    vi.resetModules();
    leaveAppFor.mockClear();
  });

  it('lets an admin manage the subscription on the page the server names', async () => {
    const calls = await renderFor(group(10));
    expect(screen.queryByText(/Subscribed/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => expect(leaveAppFor).toHaveBeenCalledWith('https://billing.example/g1'));
    expect(calls[0]?.url.searchParams.get('action')).toBe('manage_subscription');
    expect(calls[0]?.body).toEqual({ group_id: 'g1' });
  });

  it('shows Subscribed to everyone while active, and the link to admins only', async () => {
    await renderFor(group(20, 1));
    expect(screen.getByText(/Subscribed/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).toBeNull();
  });
});
