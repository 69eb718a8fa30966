// WhatsApp business chats' message types, Meta's limits and texts (issue 15).
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';

// --- WhatsApp business chats (issue 15) ---
export const WA_MESSAGE_TYPES = {
  text: server.MESSAGE_TYPE_WA_TEXT,
  rich: server.MESSAGE_TYPE_WA_RICH,
  inbound: server.MESSAGE_TYPE_WA_INBOUND,
  template: server.MESSAGE_TYPE_WA_TEMPLATE,
  status: server.MESSAGE_TYPE_WA_STATUS,
} as const;
export const BUSINESS_SESSION_KIND = server.SESSION_KIND_BUSINESS;
/** Meta's limits on what an agent sends (the server checks them too). */
export const WA_MAX_BUTTONS = server.WHATSAPP_REPLY_BUTTONS_MAX;
export const WA_BUTTON_TITLE_MAX = server.WHATSAPP_BUTTON_TITLE_MAX;
export const WA_MAX_LIST_ROWS = server.WHATSAPP_LIST_ROWS_MAX;
export const WA_MAX_CONTACTS = server.WHATSAPP_CONTACTS_MAX;
/** What each media kind accepts from the upload flow. */
export const WA_MEDIA_TYPES = server.WHATSAPP_MEDIA_TYPES;
/** The countdown is in minutes: it need not redraw more often than this. */
export const WA_COUNTDOWN_TICK_MS = 15_000;
export const WA_WINDOW_CLOSED_TEXT = 'Window closed: send a template';
export const waWindowOpenText = (remaining: string) => `Free-form replies allowed for ${remaining}`;
export const WA_TEMPLATE_ONLY_TEXT = 'More than 24 hours since the customer wrote: only a template can start the conversation again.';
export const WA_FORWARDED_TEXT = 'Forwarded';
export const WA_FORWARDED_MANY_TEXT = 'Forwarded many times';
export const WA_NO_TEMPLATES_TEXT = 'No approved templates yet. A group admin can sync them in the group’s WhatsApp settings.';
export const WA_NO_CHANNEL_TEXT = 'No WhatsApp Business number is connected to this group yet.';
