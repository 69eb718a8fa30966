// localStorage throws in some privacy modes and when storage is full; the app then
// behaves as if nothing was remembered rather than crashing. `session` keeps a value for
// this tab only (sessionStorage).

type Area = 'local' | 'session';

const storageOf = (area: Area): Storage => (area === 'local' ? window.localStorage : window.sessionStorage);

export function readStored(key: string, area: Area = 'local'): string | null {
  try {
    return storageOf(area).getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string, area: Area = 'local'): void {
  try {
    storageOf(area).setItem(key, value);
  } catch {
    // Not persisting is acceptable: the value stays valid for this page's lifetime.
  }
}

export function removeStored(key: string, area: Area = 'local'): void {
  try {
    storageOf(area).removeItem(key);
  } catch {
    // Nothing was persisted if storage is unavailable.
  }
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; SameSite=Lax${secure}`;
}

export function deleteCookie(name: string): void {
  document.cookie = `${name}=; path=/; max-age=0; SameSite=Lax`;
}
