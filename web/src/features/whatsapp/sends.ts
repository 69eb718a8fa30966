import { WA_BUTTON_TITLE_MAX, WA_MAX_BUTTONS, WA_MAX_CONTACTS, WA_MAX_LIST_ROWS, WA_MESSAGE_TYPES } from './constants';
import type { ItemFile } from '../../shared/entities/item';
import { replyData } from '../../shared/chat/replies';
import type { InboxMessage, MessageDraft } from '../../shared/chat/types';
import { templateSendData, type TemplateParameters } from './templates';
import type { WaContact, WaListRow, WaLocation, WaMessageData, WaTemplate } from './whatsappApi';

/** The kinds of rich message an agent sends (1019), by their `data.wa_kind`. */
export type MediaKind = 'image' | 'document' | 'audio' | 'video';

const rich = (data: WaMessageData, text = '', files: ItemFile[] = []): MessageDraft<WaMessageData> => ({ text, files, type: WA_MESSAGE_TYPES.rich, data });

/** Text, maybe answering one of the chat's messages (the customer sees it quoted). */
export function textDraft(text: string, replyTo: Pick<InboxMessage, 'created_at'> | null = null): MessageDraft<WaMessageData> {
  return { text: text.trim(), files: [], type: WA_MESSAGE_TYPES.text, data: replyData({}, replyTo) };
}

/** An uploaded file of one kind, with an optional caption. */
export function mediaDraft(kind: MediaKind, file: ItemFile, caption: string): MessageDraft<WaMessageData> {
  return rich({ wa_kind: kind }, caption.trim(), [file]);
}

export function locationDraft(location: WaLocation): MessageDraft<WaMessageData> {
  return rich({ wa_kind: 'location', location });
}

export function contactsDraft(contacts: WaContact[]): MessageDraft<WaMessageData> {
  return rich({ wa_kind: 'contacts', contacts });
}

/** Reply buttons: the customer taps one; its title comes back as their reply. */
export function buttonsDraft(body: string, titles: readonly string[]): MessageDraft<WaMessageData> {
  const buttons = titles.map((title, index) => ({ id: `button_${index + 1}`, title: title.trim() }));
  return rich({ wa_kind: 'interactive', interactive: { type: 'button', body: body.trim(), buttons } });
}

/** A list: the button's label opens the rows, one section of them. */
export function listDraft(body: string, label: string, rows: readonly Omit<WaListRow, 'id'>[]): MessageDraft<WaMessageData> {
  const section = { title: label.trim(), rows: rows.map((row, index) => ({ ...row, id: `row_${index + 1}` })) };
  return rich({ wa_kind: 'interactive', interactive: { type: 'list', body: body.trim(), button: label.trim(), sections: [section] } });
}

/** A 1021: its text comes from the template, which the server fills and renders itself. */
export function templateDraft(template: WaTemplate, parameters: TemplateParameters): MessageDraft<WaMessageData> {
  return { text: '', files: [], type: WA_MESSAGE_TYPES.template, data: { template: templateSendData(template, parameters) } };
}

/** Why these buttons cannot be sent (Meta's limits), or null. */
export function buttonsProblem(body: string, titles: readonly string[]): string | null {
  if (!body.trim()) return 'Write the message the buttons answer.';
  const filled = titles.filter((title) => title.trim());
  if (filled.length === 0 || filled.length > WA_MAX_BUTTONS) return `Give 1 to ${WA_MAX_BUTTONS} buttons.`;
  if (filled.some((title) => title.trim().length > WA_BUTTON_TITLE_MAX)) return `A button's title has at most ${WA_BUTTON_TITLE_MAX} characters.`;
  if (new Set(filled.map((title) => title.trim())).size < filled.length) return 'Each button needs its own title.';
  return null;
}

export function listProblem(body: string, label: string, rows: readonly Omit<WaListRow, 'id'>[]): string | null {
  if (!body.trim()) return 'Write the message the list answers.';
  if (!label.trim()) return 'Name the button that opens the list.';
  if (label.trim().length > WA_BUTTON_TITLE_MAX) return `The button's label has at most ${WA_BUTTON_TITLE_MAX} characters.`;
  if (rows.length === 0 || rows.length > WA_MAX_LIST_ROWS) return `Give 1 to ${WA_MAX_LIST_ROWS} rows.`;
  if (rows.some((row) => !row.title.trim())) return 'Every row needs a title.';
  return null;
}

export function contactsProblem(contacts: readonly WaContact[]): string | null {
  if (contacts.length === 0 || contacts.length > WA_MAX_CONTACTS) return `Share 1 to ${WA_MAX_CONTACTS} contacts.`;
  if (contacts.some((contact) => !contact.name.formatted_name.trim())) return 'Every contact needs a name.';
  if (contacts.some((contact) => !contact.phones?.length && !contact.emails?.length)) return 'Give each contact a phone number or an e-mail.';
  return null;
}
