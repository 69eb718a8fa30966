/**
 * Whether a group image value is an uploaded picture (`/uploads/...`, what the server stores,
 * also for a link it fetched) or an http(s) link; empty means no image and passes.
 */
export function isImageLink(value: string): boolean {
  if (value === '' || /^\/uploads\/[^/\s]+$/.test(value)) return true;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Comma-separated tags as the server stores them: trimmed, unique, none empty. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))];
}
