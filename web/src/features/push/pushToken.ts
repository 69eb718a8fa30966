import { STORAGE_KEYS } from '../../shared/constants';
import { readStored, removeStored, writeStored } from '../../shared/storage';
import { updatePushToken } from './pushApi';

/** The spec's remembered value: the user's _id and the subscription, combined. */
export function combinedValue(userId: string, subscription: string): string {
  return JSON.stringify([userId, subscription]);
}

/**
 * Sends the subscription when the remembered combined value differs from the current one,
 * and remembers it once the server stored it. Returns whether a call was made.
 */
export async function syncPushToken(userId: string | null, subscription: string | null): Promise<boolean> {
  if (!userId || !subscription) return false;
  const current = combinedValue(userId, subscription);
  if (readStored(STORAGE_KEYS.pushToken) === current) return false;
  await updatePushToken(subscription);
  writeStored(STORAGE_KEYS.pushToken, current);
  return true;
}

/** A logout deletes the subscription on the server: the next login must send it again. */
export function forgetPushToken(): void {
  removeStored(STORAGE_KEYS.pushToken);
}
