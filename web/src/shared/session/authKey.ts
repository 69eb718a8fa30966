import {
  AUTH_KEY_COOKIE,
  AUTH_KEY_COOKIE_MAX_AGE_S,
  AUTH_KEY_QUERY_PARAM,
  STORAGE_KEYS,
} from '../constants';
import { appEvents } from '../events';
import { deleteCookie, readCookie, readStored, removeStored, writeCookie, writeStored } from '../storage';

/** The key that signs requests: the one from the login popup, else one handed over by a link. */
export function getAuthKey(): string | null {
  return readStored(STORAGE_KEYS.authKey) || readCookie(AUTH_KEY_COOKIE) || null;
}

export function setAuthKey(key: string): void {
  writeStored(STORAGE_KEYS.authKey, key);
  appEvents.emit('auth_changed');
}

export function clearAuthKey(): void {
  removeStored(STORAGE_KEYS.authKey);
  deleteCookie(AUTH_KEY_COOKIE);
  appEvents.emit('auth_changed');
}

/** Signs in with a key a link handed over, in place of the stored one. */
function adoptLinkKey(key: string): void {
  writeCookie(AUTH_KEY_COOKIE, key, AUTH_KEY_COOKIE_MAX_AGE_S);
  // The stored key would otherwise win over the one the link just handed over.
  removeStored(STORAGE_KEYS.authKey);
}

/**
 * Links sent by the server (e-mail, chat) carry `?auth_key=`: keep it as a cookie and
 * reload without it, so the key is neither bookmarked nor leaked through Referer. When
 * another account is signed in, the key waits (`pendingAuthKey`) until the person agrees to
 * switch: a link must never silently sign someone into another account.
 * Returns true when a reload was started and the app should not render.
 */
export function consumeAuthKeyParam(
  href: string = window.location.href,
  reload: (url: string) => void = (url) => window.location.replace(url),
): boolean {
  const url = new URL(href);
  const key = url.searchParams.get(AUTH_KEY_QUERY_PARAM);
  if (key === null) return false;
  const current = getAuthKey();
  if (key && current && current !== key) writeStored(STORAGE_KEYS.pendingAuthKey, key, 'session');
  else if (key) adoptLinkKey(key);
  url.searchParams.delete(AUTH_KEY_QUERY_PARAM);
  reload(url.toString());
  return true;
}

/** A key from a link that waits for the signed-in person to agree to switch accounts. */
export function pendingAuthKey(): string | null {
  return readStored(STORAGE_KEYS.pendingAuthKey, 'session');
}

export function switchToPendingAuthKey(): void {
  const key = pendingAuthKey();
  removeStored(STORAGE_KEYS.pendingAuthKey, 'session');
  if (!key) return;
  adoptLinkKey(key);
  appEvents.emit('auth_changed');
}

export function dismissPendingAuthKey(): void {
  removeStored(STORAGE_KEYS.pendingAuthKey, 'session');
}
