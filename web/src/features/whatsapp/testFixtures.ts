// Business chat fixtures shaped as WHATSAPP.md (the contract) describes them, for the tests.
import type { Session } from '../../shared/chat/types';
import type { WaMessage, WaTemplate } from './whatsappApi';

export const HOUR_MS = 3_600_000;

export function businessSession(fields: Partial<Session> = {}, now = Date.now()): Session {
  const lastInbound = now - 2 * HOUR_MS;
  return {
    _id: 'wa_c1_31612345678',
    title: 'Ana Costa',
    description: '',
    image: '',
    files: [],
    is_public: false,
    is_read_allowed: false,
    write_permission: 15,
    created_at: lastInbound,
    is_inactive: false,
    is_dummy: false,
    session_user_type: 10,
    can_send: true,
    notification_flag: 20,
    kind: 'business',
    data: {
      whatsapp: {
        channel_id: 'c1',
        group_id: 'g1',
        wa_id: '31612345678',
        profile_name: 'Ana Costa',
        last_inbound_at: lastInbound,
        window_ends_at: lastInbound + 24 * HOUR_MS,
      },
    },
    unseen_count: 0,
    updated_at: lastInbound,
    ...fields,
  };
}

let clock = 1_700_000_000_000;

/** A message of the business chat; inbound (1020) unless the fields say otherwise. */
export function waMessage(fields: Partial<WaMessage> = {}): WaMessage {
  clock += 1000;
  const id = `m${clock}`;
  return {
    id,
    dest_session_id: 'wa_c1_31612345678',
    src_id: 'wa:31612345678',
    local_id: `wamid.${id}`,
    created_at: clock,
    type: 1020,
    payload: '',
    payload1: [],
    flags: {},
    data: {},
    ...fields,
  };
}

export const TEMPLATE: WaTemplate = {
  name: 'order_update',
  language: 'en',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
    { type: 'BODY', text: 'Hello {{1}}, your order ships on {{2}}.' },
    { type: 'FOOTER', text: 'Agora shop' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}' },
        { type: 'QUICK_REPLY', text: 'Thanks' },
      ],
    },
  ],
};
