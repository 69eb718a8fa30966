import { describe, expect, it } from 'vitest';
import { contactFrom } from './ContactsDialog';
import {
  buttonsDraft,
  buttonsProblem,
  contactsDraft,
  contactsProblem,
  listDraft,
  listProblem,
  locationDraft,
  mediaDraft,
  templateDraft,
  textDraft,
} from './sends';
import { TEMPLATE } from './testFixtures';

const file = { url: '/uploads/menu.pdf', mime_type: 'application/pdf', thumbnail: '', title: 'menu.pdf', size: 10 };

describe('what the composer sends (contract: "Agent sends")', () => {
  it('text is a 1018 with the text as payload', () => {
    expect(textDraft('  Hello  ')).toEqual({ text: 'Hello', files: [], type: 1018, data: {} });
    expect(textDraft('Yes', { created_at: 1234 }).data).toEqual({ context: { reply_to: 1234 } });
  });

  it('media, location and contacts are 1019 with their wa_kind', () => {
    expect(mediaDraft('document', file, ' Our menu ')).toEqual({ text: 'Our menu', files: [file], type: 1019, data: { wa_kind: 'document' } });
    const place = { latitude: 52.37, longitude: 4.89, address: 'Damrak 1, Amsterdam' };
    expect(locationDraft(place)).toEqual({ text: '', files: [], type: 1019, data: { wa_kind: 'location', location: place } });
    const contact = contactFrom({ name: ' Bo ', phone: '+31 6 1234', email: '', company: 'Agora' });
    expect(contact).toEqual({ name: { formatted_name: 'Bo' }, phones: [{ phone: '+31 6 1234' }], org: { company: 'Agora' } });
    expect(contactsDraft([contact]).data).toEqual({ wa_kind: 'contacts', contacts: [contact] });
  });

  it('reply buttons get ids and titles; a list one section of rows under its button label', () => {
    expect(buttonsDraft('Which size?', ['Small', 'Large']).data).toEqual({
      wa_kind: 'interactive',
      interactive: { type: 'button', body: 'Which size?', buttons: [{ id: 'button_1', title: 'Small' }, { id: 'button_2', title: 'Large' }] },
    });
    expect(listDraft('Pick a slot', 'Slots', [{ title: 'Mon 10:00', description: 'Morning' }]).data).toEqual({
      wa_kind: 'interactive',
      interactive: {
        type: 'list',
        body: 'Pick a slot',
        button: 'Slots',
        sections: [{ title: 'Slots', rows: [{ id: 'row_1', title: 'Mon 10:00', description: 'Morning' }] }],
      },
    });
  });

  it('a template is a 1021 with no text of its own: the server fills the template', () => {
    const draft = templateDraft(TEMPLATE, { header: ['#42'], body: ['Ana', 'Monday'], buttons: ['42'] });
    expect(draft.type).toBe(1021);
    expect(draft.text).toBe('');
    expect(draft.data.template).toEqual({ name: 'order_update', language: 'en', parameters: { header: ['#42'], body: ['Ana', 'Monday'], buttons: ['42'] } });
  });

  it('refuses what Meta refuses: 1-3 buttons of at most 20 characters, 1-10 rows, contacts without a way to reach them', () => {
    expect(buttonsProblem('Size?', ['S', 'M', 'L'])).toBeNull();
    expect(buttonsProblem('Size?', ['', '', ''])).toMatch(/1 to 3/);
    expect(buttonsProblem('Size?', ['A title that is far too long'])).toMatch(/20 characters/);
    expect(buttonsProblem('Size?', ['S', 'S'])).toMatch(/own title/);
    expect(buttonsProblem(' ', ['S'])).toMatch(/message/);
    expect(listProblem('Pick', 'Slots', [])).toMatch(/1 to 10/);
    expect(listProblem('Pick', 'Slots', Array.from({ length: 11 }, (_, index) => ({ title: `Row ${index}` })))).toMatch(/1 to 10/);
    expect(listProblem('Pick', '', [{ title: 'A' }])).toMatch(/button/);
    expect(contactsProblem([{ name: { formatted_name: 'Bo' } }])).toMatch(/phone number or an e-mail/);
    expect(contactsProblem([])).toMatch(/1 to 5/);
  });
});
