import { api } from '../../shared/api';
import type { Group } from '../../shared/entities/group';
import type { Item } from '../../shared/entities/item';

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
