import { BUSINESS_SESSION_KIND, WA_WINDOW_CLOSED_TEXT, waWindowOpenText } from './constants';
import { quotedText } from '../../shared/chat/replies';
import type { DeliveryIcon, Session } from '../../shared/chat/types';
import type { BusinessChatData, WaInfo, WaMessage } from './whatsappApi';

// The chat types the fields a plug-in keeps in a session loosely: this reads WhatsApp's.
/** `data.whatsapp` of a business chat. */
export const businessData = (session: Pick<Session, 'data'>): BusinessChatData | undefined =>
  session.data.whatsapp as BusinessChatData | undefined;

/** A WhatsApp business chat, however the server described it. */
export function isBusinessSession(session: Pick<Session, 'kind' | 'data'>): boolean {
  return session.kind === BUSINESS_SESSION_KIND || businessData(session) !== undefined;
}

/** How a business chat names its customer: their WhatsApp profile name, else the chat's title. */
export function customerName(session: Pick<Session, 'title' | 'data'>): string {
  return businessData(session)?.profile_name || session.title;
}

/**
 * When the customer sent their message (Meta's time of it): Meta may deliver a message long
 * after, and it is stored when it arrives. Never later than it was stored.
 */
export function customerSentAt(message: Pick<WaMessage, 'data' | 'created_at'>): number {
  return Math.min(message.data.wa?.sent_at ?? message.created_at, message.created_at);
}

/**
 * A business message's tick from its flags (spec: message delivery icons): a failure or a
 * refusal wins, then the furthest Meta reported; accepted by the API counts as sent.
 * Null when the flags say nothing yet.
 */
export function waDeliveryIcon(info: WaInfo | undefined): DeliveryIcon | null {
  if (!info) return null;
  if (info.wa_f) return 'error';
  if (info.wa_ns) return 'not_sent';
  if (info.wa_r) return 'read';
  if (info.wa_d) return 'delivered';
  if (info.wa_s || info.s1) return 'sent';
  return null;
}

/**
 * The messages with the flags status reports brought (by message id). Flags only move
 * forward, and each report holds all of a message's flags at that moment, so a report and
 * the message's own copy (older or newer) join into the furthest state of both. A report
 * that came before its message (the send's reply still on its way) waits in `reported`.
 */
export function withWaStatuses<T extends WaMessage>(messages: readonly T[], reported: Readonly<Record<string, WaInfo>>): T[] {
  return messages.map((message) => {
    const info = reported[message.id];
    return info ? { ...message, info: { ...message.info, ...info } } : message;
  });
}

const MINUTE_MS = 60_000;

/** "5 h 12 min", "45 min", "< 1 min", rounded down: never more time than is left. */
export function formatRemaining(ms: number): string {
  const minutes = Math.floor(ms / MINUTE_MS);
  if (minutes < 1) return '< 1 min';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** Whether free-form replies are allowed now, and the header's line saying so. */
export function replyWindow(windowEndsAt: number | undefined, now: number): { open: boolean; text: string } {
  const left = (windowEndsAt ?? 0) - now;
  if (left <= 0) return { open: false, text: WA_WINDOW_CLOSED_TEXT };
  return { open: true, text: waWindowOpenText(formatRemaining(left)) };
}

/** The message's text, whichever field holds it (an inbound message's `txt`). */
export function messageText(message: Pick<WaMessage, 'payload' | 'data'>): string {
  return message.payload || message.data.txt || '';
}

/**
 * What a message answers, for its quote: the loaded message's text ('' when it has none),
 * undefined when it answers a message not loaded, null when it answers nothing. A
 * customer's reply names Meta's id of the message, an agent's the message's created_at.
 */
export function repliedTo(messages: readonly WaMessage[], message: Pick<WaMessage, 'data'>): string | null {
  const wamid = message.data.context?.reply_to_wamid;
  if (!wamid) return quotedText(messages, message, waPreview);
  const answered = messages.find((candidate) => candidate.data.wa?.wamid === wamid);
  return answered ? waPreview(answered) : '';
}

/** An inbound message's sender, `wa:{wa_id}`: the customer, not one of our users. */
export function isCustomerId(srcId: string): boolean {
  return srcId.startsWith('wa:');
}

const KIND_PREVIEWS: Readonly<Record<string, string>> = {
  image: '🖼️ Photo',
  sticker: '🖼️ Sticker',
  audio: '🎵 Audio',
  video: '🎬 Video',
  document: '📄 Document',
  contacts: '👤 Contact',
};

/** A WhatsApp message in one line, for the chat list: its text, else what kind of thing it is. */
export function waPreview(message: Pick<WaMessage, 'payload' | 'data'>): string {
  const data = message.data;
  const interactive = data.interactive;
  const text = messageText(message) || (interactive ? ('title' in interactive ? interactive.title : interactive.body) : '');
  if (text) return text;
  if (data.location) return `📍 ${data.location.name || data.location.address}`;
  return KIND_PREVIEWS[data.wa?.kind ?? data.wa_kind ?? ''] ?? '';
}
