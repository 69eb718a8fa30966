import { api } from '../../shared/api';
import type { Item } from '../../shared/entities/item';
import type { User } from '../../shared/entities/user';
import type { Wallet } from '../../shared/entities/wallet';

export interface ProfileReply {
  user: User;
  user_wallets: Wallet[];
}

export type ProfileChanges = Partial<Pick<User, 'name' | 'image' | 'email_id' | 'phone_number'>>;

/** Where a confirmation code went, for a new e-mail address or phone number. */
export interface ConfirmationCode {
  sent_to: string;
  otp_length?: number;
}

export type ProfileUpdateReply = { user: User } | { require: ['otp']; data: ConfirmationCode };

export function fetchProfile(signal?: AbortSignal): Promise<ProfileReply> {
  return api.get<ProfileReply>('/api/user/profile', undefined, { signal });
}

/** Changing the e-mail or phone first answers with require: ["otp"]; send again with the code. */
export function updateProfile(changes: ProfileChanges & { otp?: string }): Promise<ProfileUpdateReply> {
  return api.post<ProfileUpdateReply>('/api/user/profile', changes, { query: { action: 'update' } });
}

export function logout(): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/api/user/logout');
}

/** The member's own posts, for /profile. */
export function fetchUserItems(signal?: AbortSignal): Promise<{ items: Item[] }> {
  return api.post<{ items: Item[] }>('/api/user/items', {}, { signal });
}
