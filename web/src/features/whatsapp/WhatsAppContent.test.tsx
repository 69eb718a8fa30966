import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../shared/chat/types';
import { renderMessageBubble } from '../../test/chat';
import { waMessage } from './testFixtures';

const customer = { _id: 'wa:31612345678', name: 'Ana Costa', image: '' };

function bubble(message: InboxMessage, quoted: string | null = null) {
  renderMessageBubble({ message, sender: message.type === 1020 ? customer : undefined, own: false, onInfo: null, onRetry: () => undefined, quoted });
  return screen.getByTestId('chat-message');
}

describe('WhatsApp message renderers', () => {
  it('an inbound text sits on the left under the customer’s name, without ticks', () => {
    const shown = bubble(waMessage({ data: { txt: 'Do you deliver on Sunday? https://shop.example/faq', wa: { wamid: 'w1', kind: 'text' } } }));
    expect(shown.parentElement?.className).not.toContain('flex-row-reverse');
    expect(within(shown).getByText('Ana Costa')).toBeTruthy();
    expect(within(shown).getByRole('link', { name: 'https://shop.example/faq' })).toBeTruthy();
    expect(within(shown).queryByRole('img', { name: /Sent|Read|Delivered/ })).toBeNull();
  });

  it('an image opens the image viewer; audio and video play in place', () => {
    const shown = bubble(
      waMessage({
        data: {
          wa: { kind: 'image' },
          txt: 'The broken part',
          media_urls: [
            { url: '/uploads/part.jpg', mime_type: 'image/jpeg', title: 'part.jpg' },
            { url: '/uploads/voice.ogg', mime_type: 'audio/ogg', title: 'Voice note' },
            { url: '/uploads/clip.mp4', mime_type: 'video/mp4', title: 'Clip' },
          ],
        },
      }),
    );
    expect(within(shown).getByText('The broken part')).toBeTruthy();
    expect(shown.querySelector('audio[controls]')?.getAttribute('src')).toBe('/uploads/voice.ogg');
    expect(shown.querySelector('video[controls]')?.getAttribute('src')).toBe('/uploads/clip.mp4');
    fireEvent.click(within(shown).getByRole('button', { name: 'View image part.jpg' }));
    expect(screen.getByRole('dialog', { name: 'Images' })).toBeTruthy();
  });

  it('a document is a card with its name, type and a download link', () => {
    const shown = bubble(waMessage({ data: { wa: { kind: 'document' }, media_urls: [{ url: '/uploads/invoice.pdf', mime_type: 'application/pdf', title: 'invoice.pdf' }] } }));
    const card = within(shown).getByTestId('wa-document');
    expect(within(card).getByText('invoice.pdf')).toBeTruthy();
    expect(within(card).getByText('PDF')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Download invoice.pdf' }).getAttribute('href')).toBe('/uploads/invoice.pdf');
  });

  it('a contact card calls and mails with a tap', () => {
    const shown = bubble(
      waMessage({
        data: {
          wa: { kind: 'contacts' },
          contacts: [{ name: { formatted_name: 'Bo Jansen' }, phones: [{ phone: '+31 6 1234 5678', type: 'CELL' }], emails: [{ email: 'bo@shop.example' }], org: { company: 'Bo Bikes' } }],
        },
      }),
    );
    const card = within(shown).getByRole('region', { name: 'Contact Bo Jansen' });
    expect(within(card).getByText('Bo Bikes')).toBeTruthy();
    expect(within(card).getByRole('link', { name: '+31 6 1234 5678' }).getAttribute('href')).toBe('tel:+31612345678');
    expect(within(card).getByRole('link', { name: 'bo@shop.example' }).getAttribute('href')).toBe('mailto:bo@shop.example');
  });

  it('a location shows its name, address and a map link', () => {
    const shown = bubble(waMessage({ data: { wa: { kind: 'location' }, location: { latitude: 52.37, longitude: 4.89, address: 'Damrak 1', name: 'Bo Bikes' } } }));
    expect(within(shown).getByText('Bo Bikes')).toBeTruthy();
    expect(within(shown).getByText('Damrak 1')).toBeTruthy();
    expect(within(shown).getByRole('link', { name: 'Open map' }).getAttribute('href')).toContain('mlat=52.37');
  });

  it('an agent’s reply buttons and list show as the customer sees them; the list opens its rows', () => {
    const buttons = bubble(
      waMessage({
        type: 1019,
        src_id: 'u1',
        data: { wa_kind: 'interactive', interactive: { type: 'button', body: 'Which size?', buttons: ['S', 'M', 'L'].map((title) => ({ id: title, title })) } },
      }),
    );
    expect(buttons.parentElement?.className).toContain('flex-row-reverse');
    expect(within(within(buttons).getByRole('list', { name: 'Reply buttons' })).getAllByRole('listitem')).toHaveLength(3);

    const list = screen.getAllByTestId('chat-message').length;
    renderMessageBubble({
      message: waMessage({
        type: 1019,
        src_id: 'u1',
        data: { wa_kind: 'interactive', interactive: { type: 'list', body: 'Pick a slot', button: 'Slots', sections: [{ title: 'Monday', rows: [{ id: 'r1', title: '10:00', description: 'Morning' }] }] } },
      }),
      sender: undefined,
      own: true,
      onInfo: null,
      onRetry: () => undefined,
    });
    const listBubble = screen.getAllByTestId('chat-message')[list]!;
    const opener = within(listBubble).getByRole('button', { name: /Slots/ });
    expect(opener.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(opener);
    expect(within(listBubble).getByText('10:00')).toBeTruthy();
    expect(within(listBubble).getByText('Morning')).toBeTruthy();
  });

  it('the customer’s choice shows the chosen title', () => {
    const shown = bubble(waMessage({ data: { wa: { kind: 'interactive' }, txt: 'Large', interactive: { type: 'button_reply', id: 'L', title: 'Large' } } }));
    expect(within(shown).getByTestId('wa-choice').textContent).toContain('Large');
    expect(within(shown).getAllByText('Large')).toHaveLength(1);
  });

  it('a template shows header, body, footer and its buttons, URL buttons as links', () => {
    const shown = bubble(
      waMessage({
        type: 1021,
        src_id: 'u1',
        payload: 'Hello Ana, your order ships on Monday.',
        info: { s0: true, s1: 1, wa_s: 2, wa_d: 3 },
        data: {
          template: {
            name: 'order_update',
            language: 'en',
            header: 'Order #42',
            body: 'Hello Ana, your order ships on Monday.',
            footer: 'Agora shop',
            buttons: [
              { type: 'URL', text: 'Track', url: '/wa/c/tok1' },
              { type: 'QUICK_REPLY', text: 'Thanks' },
            ],
          },
        },
      }),
    );
    const template = within(shown).getByTestId('wa-template');
    expect(within(template).getByText('Order #42')).toBeTruthy();
    expect(within(template).getByText('Agora shop')).toBeTruthy();
    expect(within(template).getByRole('link', { name: /Track/ }).getAttribute('href')).toBe('/wa/c/tok1');
    expect(within(template).getByText('Thanks')).toBeTruthy();
    expect(within(shown).getByRole('img', { name: 'Delivered' })).toBeTruthy();
  });

  it('reactions, the reply quote, the forwarded mark and the ad it came from', () => {
    const shown = bubble(
      waMessage({
        data: {
          txt: 'Still available?',
          reactions: { u1: '👍', u2: '👍', '31612345678': '❤️' },
          context: { reply_to_wamid: 'wamid.A', frequently_forwarded: true },
          referral: { source_type: 'ad', headline: 'Winter sale', source_url: 'https://fb.example/ad/1' },
        },
      }),
      'Is it in stock?',
    );
    expect(within(within(shown).getByRole('list', { name: 'Reactions' })).getByRole('listitem', { name: '👍 2' })).toBeTruthy();
    expect(within(shown).getByRole('blockquote', { name: 'Reply to' }).textContent).toBe('Is it in stock?');
    expect(within(shown).getByText(/Forwarded many times/)).toBeTruthy();
    expect(within(within(shown).getByRole('complementary', { name: 'From an ad' })).getByText('Winter sale')).toBeTruthy();
  });
});
