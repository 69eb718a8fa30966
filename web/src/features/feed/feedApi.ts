import { api } from '../../shared/api';
import type { UploadedFile } from '../../shared/upload';

export interface Group {
  _id: string;
  title: string;
  description: string;
  image: string;
  is_public: boolean;
  is_read_allowed: boolean;
  write_permission: number;
  created_at: number;
  /** The viewer's membership type, null when not a member. */
  session_user_type: number | null;
  can_write: boolean;
  /** subscription_status 1: the group's paid subscription is active. */
  data: { tags: string[]; num_posts: number; num_members: number; city?: unknown; subscription_status?: number };
}

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
}

export interface FeedQuery {
  group_id: string;
  search_text?: string;
  tags?: string[];
  cursor?: string;
}

export interface FeedPage {
  items: Item[];
  group: Group;
  next_cursor: string | null;
  has_more: boolean;
}

export function fetchFeed(query: FeedQuery, signal?: AbortSignal): Promise<FeedPage> {
  return api.post<FeedPage>('/api/feed', query, { signal });
}

export function fetchUserItems(signal?: AbortSignal): Promise<{ items: Item[] }> {
  return api.post<{ items: Item[] }>('/api/user/items', {}, { signal });
}

/** The server's code for a group the viewer may not see. */
export function isInvalidGroupError(errors: unknown): boolean {
  return typeof errors === 'object' && errors !== null && 'invalid_group' in errors;
}
