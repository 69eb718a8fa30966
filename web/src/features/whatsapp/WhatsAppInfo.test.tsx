import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { renderMessageInfo } from '../../test/chat';
import { waMessage } from './testFixtures';

function showInfo(info: unknown) {
  mockFetch(() => ({ body: { info } }));
  renderMessageInfo({ message: waMessage({ type: 1021, src_id: 'u1' }), onClose: () => undefined });
}

describe('the message info view of a business message', () => {
  beforeEach(() => vi.resetModules());

  it('lists the WhatsApp flags with their times, the errors and the clicks', async () => {
    const at = Date.now() - 60_000;
    showInfo({
      read: [],
      delivered: [],
      whatsapp: { s0: true, s1: at, wa_s: at, wa_f: at + 1000, wa_errors: [{ code: 131026, title: 'Message undeliverable', message: 'Receiver is incapable' }], wa_click: 3 },
    });
    const list = await screen.findByLabelText('WhatsApp');
    for (const label of ['Templated', 'Sent by server', 'Sent', 'Failed', 'Clicks']) expect(within(list).getByText(label)).toBeTruthy();
    expect(within(list).queryByText('Read')).toBeNull();
    expect(within(list).getByText('131026').parentElement?.textContent).toContain('Message undeliverable');
    expect(within(list).getByText('3')).toBeTruthy();
    expect(screen.queryByText('Sorry No information available')).toBeNull();
  });

  it('says so when there is nothing', async () => {
    showInfo({ read: [], delivered: [] });
    expect(await screen.findByText('Sorry No information available')).toBeTruthy();
  });

  it('names a refusal for want of credits', async () => {
    showInfo({ read: [], delivered: [], whatsapp: { s0: true, wa_ns: Date.now() } });
    expect(await screen.findByText('Not sent (channel disabled or no credits)')).toBeTruthy();
  });
});
