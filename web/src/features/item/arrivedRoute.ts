import { readStored, writeStored } from '../../shared/storage';

/**
 * The share route a person arrived through, per post: the sharer's `/r/{route}` they
 * opened. Kept in localStorage so that browsing elsewhere, or logging in, does not lose
 * it; the chat they start carries it, so the sharers on it can be paid their finder's fees.
 */
const key = (itemId: string) => `agora.arrivedRoute.${itemId}`;

interface SeenRoute {
  _id: string;
  user_id: string;
  prev_user_ids: string[];
}

/** Remembers a sharer's route; the poster's own link and the viewer's own one credit nobody new. */
export function rememberArrivedRoute(itemId: string, route: SeenRoute | undefined, viewerId: string | null): void {
  if (!route || route.prev_user_ids.length === 0 || route.user_id === viewerId) return;
  writeStored(key(itemId), route._id);
}

/** The route to start a chat or a share from: the one arrived through, else the given one. */
export function arrivedRoute(itemId: string, fallback: string): string {
  return readStored(key(itemId)) ?? fallback;
}
