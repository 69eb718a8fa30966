import { api } from '../api';
import type { UploadedFile } from '../upload';
import type { Group } from './group';

export interface ItemFile {
  url: string;
  mime_type: string;
  thumbnail: string;
  title: string;
  size: number;
}

/** A finished upload as posts and chat messages carry it. */
export function itemFileFrom(uploaded: UploadedFile, title: string): ItemFile {
  return { url: uploaded.file_url, mime_type: uploaded.file_mime_type, thumbnail: uploaded.thumbnail, title, size: uploaded.size };
}

export interface Item {
  _id: string;
  group_id: string;
  user_id: string;
  route_id: string;
  created_at: number;
  updated_at: number;
  sort_order: number;
  need_user_to_view: boolean;
  // Visitors get items that need a user without their content.
  title?: string;
  description?: string;
  files?: ItemFile[];
  tags?: string[];
  offer_amount?: number | null;
  offer_currency?: string | null;
  offer_description?: string;
  route?: { _id: string; user_id: string; prev_user_ids: string[] };
  /** The share of each offer paid to the people who shared the post (0: none). */
  finder_fee_percent?: number;
  /** How many people shared the post. */
  share_count?: number;
  // The reward the server holds for the post (issue 32); absent for visitors of posts that need a user.
  reward_status?: RewardStatus;
  /** Held now: goes down as offers are paid from it. */
  reward_held?: number;
  /** The largest finder's-fee pool the reward can pay. */
  reward_pool?: number;
  /** What the post asks to be held: the reward and its pool. */
  reward_hold?: number;
  /** The offers paid on the post (fees not counted), and how many. */
  reward_paid?: number;
  reward_paid_count?: number;
  expires_at?: number | null;
  closed_at?: number | null;
  closed_reason?: 'closed' | 'expired' | null;
}

/**
 * `held`: the server holds the reward now; `released`: it held it and gave it back (closed,
 * deleted, expired); `not_held`: a reward in words only, or a post from before holds; `none`.
 */
export type RewardStatus = 'held' | 'released' | 'not_held' | 'none';

/** Without `groupId` the item is read wherever it was posted. */
export function fetchItem(itemId: string, groupId?: string, signal?: AbortSignal): Promise<{ item: Item; group: Group }> {
  return api.post<{ item: Item; group: Group }>('/api/item', { item_id: itemId, group_id: groupId }, { signal });
}
