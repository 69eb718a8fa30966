export interface User {
  _id: string;
  name: string;
  /** A URL, or "" when the user has no picture. */
  image: string;
  /** E.164, e.g. "+31612345678". */
  phone_number: string | null;
  email_id: string | null;
  data: { notifications_unseen_count: number };
  /** Epoch milliseconds. */
  created_at: number;
}

export interface GuestUser {
  _id: string;
  name: string;
  is_guest: true;
}

export interface MeResponse {
  user: User | null;
  guest_user: GuestUser;
}
