import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FetchCall, type FakeReply } from '../../test/fetchMock';
import type { WaChannel } from './whatsappApi';

const admin = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'a@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

const channel: WaChannel = {
  _id: 'c1',
  group_id: 'g1',
  phone_number_id: '1055',
  business_account_id: '2077',
  display_phone_number: '+31 20 123 4567',
  enabled: true,
  webhook_url: 'https://agora.example/webhooks/whatsapp',
  created_at: 1,
  updated_at: 1,
  last_event_at: Date.now() - 5 * 60_000,
  templates_synced_at: null,
  has_access_token: true,
  has_app_secret: true,
  has_verify_token: true,
};

async function renderChannel(replies: (call: FetchCall) => FakeReply) {
  const { ChannelPage } = await import('./ChannelPage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  const calls = mockFetch((call) => (call.url.pathname === '/user/me' ? { body: { user: admin, guest_user: {} } } : replies(call)));
  const router = createMemoryRouter([{ path: '/group/:groupId/whatsapp', element: <ChannelPage /> }], { initialEntries: ['/group/g1/whatsapp'] });
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  return calls;
}

describe('the group’s WhatsApp screen', () => {
  beforeEach(() => vi.resetModules());

  it('shows the connection, copies the webhook URL and never shows a secret back', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await renderChannel((call) => {
      if (call.url.pathname.endsWith('/disable')) return { body: { channel: { ...channel, enabled: false } } };
      return { body: { channel } };
    });
    const state = await screen.findByRole('region', { name: '+31 20 123 4567' });
    expect(within(state).getByTestId('channel-status').textContent).toBe('Connected');
    expect(within(state).getByText('5 minutes ago')).toBeTruthy();
    expect(within(state).getByText('Never')).toBeTruthy();
    fireEvent.click(within(state).getByRole('button', { name: 'Copy the webhook URL' }));
    expect(writeText).toHaveBeenCalledWith('https://agora.example/webhooks/whatsapp');

    const token = screen.getByLabelText('Access token (saved)') as HTMLInputElement;
    expect(token.type).toBe('password');
    expect(token.value).toBe('');
    expect((screen.getByLabelText('Phone number id') as HTMLInputElement).value).toBe('1055');

    fireEvent.click(within(state).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(within(state).getByTestId('channel-status').textContent).toBe('Disabled'));
  });

  it('connects a number, with the server’s refusals next to their fields', async () => {
    const calls = await renderChannel((call) =>
      call.method === 'POST' ? { status: 400, body: { errors: { phone_number_id: 'The Graph API does not know this number' } } } : { body: { channel: null } },
    );
    expect(await screen.findByText('No WhatsApp Business number is connected to this group yet.')).toBeTruthy();
    const values: Record<string, string> = {
      'Phone number id': '999',
      'Business account id': '2077',
      'Access token': 'EAAG-token',
      'App secret': 'shh',
      'Webhook verify token': 'verify-me',
    };
    for (const [label, value] of Object.entries(values)) fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('The Graph API does not know this number')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      phone_number_id: '999',
      business_account_id: '2077',
      access_token: 'EAAG-token',
      app_secret: 'shh',
      verify_token: 'verify-me',
    });
    expect(screen.getByLabelText('Phone number id').getAttribute('aria-invalid')).toBe('true');
  });
});
