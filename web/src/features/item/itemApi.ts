import { api } from '../../shared/api';
import type { Session } from '../../shared/chat/types';
import type { Group } from '../../shared/entities/group';
import type { Item } from '../../shared/entities/item';
import type { ShareEarnings } from '../../shared/entities/finderFee';

export interface ItemFields {
  title: string;
  description: string;
  /** file_url values. */
  files: string[];
  tags: string[];
  offer_amount: number | null;
  offer_currency: string;
  offer_description: string;
  need_user_to_view: boolean;
  /** Whole number 0-50; a text the server refuses with its own message. */
  finder_fee_percent: number | string;
}

export interface RouteUser {
  _id: string;
  name: string;
  image: string;
}

export interface RouteReply {
  item: Item;
  group: Group;
  /** The chain of owners, poster first. */
  route_users: RouteUser[];
  /** What the viewer's own link earns, by the server's paying rule; null when nothing. */
  share_earnings?: ShareEarnings | null;
}

export function createItem(groupId: string, fields: ItemFields): Promise<{ item: Item }> {
  return api.post<{ item: Item }>('/api/item', { group_id: groupId, ...fields }, { query: { action: 'create' } });
}

export function updateItem(groupId: string, itemId: string, fields: ItemFields): Promise<{ item: Item }> {
  return api.post<{ item: Item }>('/api/item', { group_id: groupId, item_id: itemId, ...fields }, { query: { action: 'update' } });
}

export function deleteItem(itemId: string): Promise<{ item: Item }> {
  return api.post<{ item: Item }>('/api/item', { item_id: itemId }, { query: { action: 'delete' } });
}

export function fetchRoute(routeId: string, signal?: AbortSignal): Promise<RouteReply> {
  return api.get<RouteReply>(`/api/r/${encodeURIComponent(routeId)}`, undefined, { signal });
}

export function shareRoute(routeId: string): Promise<{ url: string; route_id: string }> {
  return api.get<{ url: string; route_id: string }>(`/api/r/${encodeURIComponent(routeId)}`, { action: 'share' });
}

export interface ChatEntry {
  session: Session;
  item: Item;
  is_item_owner: boolean;
  is_user_in_session: boolean;
}

/** The chats about an item: all of them for its owner, else the viewer's own one (maybe a dummy). */
export function fetchItemChats(itemId: string, routeId: string): Promise<{ item: Item; chats: ChatEntry[] }> {
  return api.post(`/api/chats/${encodeURIComponent(itemId)}`, { route_id: routeId });
}

/** Closes the post: what is still held of its reward goes back to the poster's wallet. */
export function closeItem(itemId: string): Promise<{ item: Item }> {
  return api.post<{ item: Item }>('/api/item', { item_id: itemId }, { query: { action: 'close' } });
}

export interface HoldPreviewRequest {
  offer_amount: number;
  offer_currency: string;
  finder_fee_percent: number;
  /** The post being edited: the preview is then of the change. */
  item_id?: string;
}

/** What holding a reward would take, as the server will take it; nothing moves. */
export interface HoldPreview {
  currency: string;
  reward: number;
  pool: number;
  /** reward + pool. */
  hold: number;
  /** What the post holds now (0 for a new post). */
  held_now: number;
  /** How the hold would move: > 0 taken from available, < 0 given back. */
  change: number;
  available: number;
  enough: boolean;
  need_stripe_recharge?: { amount: number; currency: string };
  need_recharge?: string;
}

export function previewHold(request: HoldPreviewRequest, signal?: AbortSignal): Promise<HoldPreview> {
  return api.post<HoldPreview>('/api/reward/hold_preview', request, { signal });
}
