import { api } from '../../shared/api';
import type { InboxMessage, MessageData, ReplyContext } from '../../shared/chat/types';
import type { Place } from '../../shared/location/locationApi';

/** `data.whatsapp` of a business chat (never a secret). */
export interface BusinessChatData {
  channel_id: string;
  group_id: string;
  wa_id: string;
  profile_name: string;
  last_inbound_at: number;
  /** When free-form replies stop being allowed: 24 h after the customer's last message (ms). */
  window_ends_at: number;
}

export interface WaMedia {
  url: string;
  mime_type: string;
  title: string;
}

/** A contact card as the server keeps Meta's contacts. */
export interface WaContact {
  name: { formatted_name: string };
  phones?: Array<{ phone: string; type?: string }>;
  emails?: Array<{ email: string; type?: string }>;
  org?: { company?: string };
}

export interface WaLocation extends Place {
  name?: string;
}

export interface WaReplyButton {
  id: string;
  title: string;
}

export interface WaListRow {
  id: string;
  title: string;
  description?: string;
}

export interface WaListSection {
  title: string;
  rows: WaListRow[];
}

/** What an agent sends (buttons or a list), or what the customer chose (a reply). */
export type WaInteractive =
  | { type: 'button'; body: string; buttons: WaReplyButton[] }
  | { type: 'list'; body: string; button: string; sections: WaListSection[] }
  | { type: 'button_reply'; id: string; title: string }
  | { type: 'list_reply'; id: string; title: string; description?: string };

export interface WaTemplateButton {
  type: 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER';
  text: string;
  url?: string;
  phone_number?: string;
}

/** A template as sent: the server filled in the parameters. */
export interface RenderedTemplate {
  name: string;
  language: string;
  header?: string;
  body: string;
  footer?: string;
  buttons?: WaTemplateButton[];
}

/** A template as an agent sends it (`data.template` of the send): the server fills it in. */
export interface TemplateSend {
  name: string;
  language: string;
  parameters: { header: string[]; body: string[]; buttons: string[] };
}

/** The ad a customer came from. */
export interface WaReferral {
  source_url?: string;
  source_type?: string;
  headline?: string;
  body?: string;
}

/** What a WhatsApp message answers or passes on: a customer's reply names Meta's id of the message it answers. */
export interface WaReplyContext extends ReplyContext {
  reply_to_wamid?: string;
  forwarded?: boolean;
  frequently_forwarded?: boolean;
}

/**
 * The `data` of a WhatsApp message (1018-1021, inbound and outbound; the server's per-kind
 * shapes in agora/core/whatsapp). Every field is optional, so a message of another kind reads
 * as carrying none of them.
 */
export interface WaMessageData extends MessageData {
  /** `sent_at`: a customer's message, when they sent it (ms). */
  wa?: { wamid?: string; kind?: string; sent_at?: number };
  wa_kind?: string;
  txt?: string;
  media_urls?: WaMedia[];
  contacts?: WaContact[];
  location?: WaLocation;
  interactive?: WaInteractive;
  /** Rendered once stored; the local copy of a send holds what was sent. */
  template?: RenderedTemplate | TemplateSend;
  referral?: WaReferral;
  context?: WaReplyContext;
}

export interface WaError {
  code: number;
  title: string;
  message?: string;
}

/** A business message's flags (spec: message info flags); times in ms. */
export interface WaInfo {
  s0?: boolean;
  s1?: number;
  wa_s?: number;
  wa_d?: number;
  wa_r?: number;
  wa_f?: number;
  wa_ns?: number;
  wa_errors?: WaError[];
  wa_click?: number;
}

/** A WhatsApp message as the chat holds it, with its flags. */
export interface WaMessage extends InboxMessage<WaMessageData> {
  info?: WaInfo;
}

/** A status that moved a message (socket `wa_status`): its whole merged `info`. */
export interface WaStatusEvent {
  type: number;
  session_id: string;
  id: string;
  created_at: number;
  info: WaInfo;
}

export interface TemplateComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS';
  format?: string;
  text?: string;
  buttons?: WaTemplateButton[];
}

/** An approved template as synced from Meta. */
export interface WaTemplate {
  name: string;
  language: string;
  category: string;
  components: TemplateComponent[];
}

export interface WaChannel {
  _id: string;
  group_id: string;
  phone_number_id: string;
  business_account_id: string;
  display_phone_number: string;
  enabled: boolean;
  webhook_url: string;
  created_at: number;
  updated_at: number;
  last_event_at: number | null;
  templates_synced_at: number | null;
  has_access_token: boolean;
  has_app_secret: boolean;
  has_verify_token: boolean;
}

export interface ChannelForm {
  phone_number_id: string;
  business_account_id: string;
  access_token: string;
  app_secret: string;
  verify_token: string;
}

type ChannelReply = { channel: WaChannel | null };

const channelPath = (groupId: string) => `/api/groups/${encodeURIComponent(groupId)}/whatsapp`;

export function fetchChannel(groupId: string, signal?: AbortSignal): Promise<ChannelReply> {
  return api.get(channelPath(groupId), undefined, { signal });
}

/** Connects or updates; an empty secret keeps the stored one. */
export function saveChannel(groupId: string, form: ChannelForm): Promise<ChannelReply> {
  return api.post(channelPath(groupId), form);
}

export function setChannelEnabled(groupId: string, enabled: boolean): Promise<ChannelReply> {
  return api.post(`${channelPath(groupId)}/${enabled ? 'enable' : 'disable'}`);
}

export function syncTemplates(groupId: string): Promise<{ templates: WaTemplate[] }> {
  return api.post(`${channelPath(groupId)}/templates/sync`);
}

export function fetchTemplates(sessionId: string, signal?: AbortSignal): Promise<{ templates: WaTemplate[] }> {
  return api.get('/api/whatsapp/templates', { session_id: sessionId }, { signal });
}
