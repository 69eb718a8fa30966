import type { Session } from '../shared/chat/types';

/** A chat as the server lists it to a member who follows it, with `fields` changed. */
export function chatSession(fields: Partial<Session> & { _id: string }): Session {
  return {
    title: `Chat ${fields._id}`,
    description: '',
    image: '',
    files: [],
    is_public: false,
    is_read_allowed: false,
    write_permission: 20,
    created_at: 0,
    is_inactive: false,
    is_dummy: false,
    session_user_type: 20,
    can_send: true,
    notification_flag: 20,
    data: {},
    unseen_count: 0,
    updated_at: 0,
    ...fields,
  };
}
