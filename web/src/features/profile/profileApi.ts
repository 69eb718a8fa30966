import { api } from '../../shared/api';
import type { Item } from '../../shared/entities/item';
import type { User } from '../../shared/entities/user';
import type { Wallet } from '../../shared/entities/wallet';
import type { ReviewsSummary } from '../reviews';

/** A person's rewards as a poster: held now over their open posts, and offers paid (fees not counted), by currency. */
export interface Rewards {
  held: { currency: string; amount: number }[];
  paid: { currency: string; amount: number; count: number }[];
}

export interface ProfileReply {
  user: User;
  user_wallets: Wallet[];
  rewards: Rewards;
  reviews_summary: ReviewsSummary;
}

/** What anyone (visitors too) may see of a person: /u/:userId. */
export interface PublicProfileReply {
  user: Pick<User, '_id' | 'name' | 'image'>;
  rewards: Rewards;
  reviews_summary: ReviewsSummary;
}

export function fetchPublicProfile(userId: string, signal?: AbortSignal): Promise<PublicProfileReply> {
  return api.get<PublicProfileReply>(`/api/users/${encodeURIComponent(userId)}/profile`, undefined, { signal });
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
