import { URL_PREVIEW_CACHE_SIZE } from './constants';
import { fetchUrlPreview, type UrlPreview } from './chatApi';

const previews = new Map<string, Promise<UrlPreview | null>>();

/** The link's preview, remembered for the most recent links only. */
export function urlPreview(url: string): Promise<UrlPreview | null> {
  const known = previews.get(url);
  if (known) {
    // Re-inserting marks the entry as recently used.
    previews.delete(url);
    previews.set(url, known);
    return known;
  }
  const loading = fetchUrlPreview(url).catch(() => null);
  previews.set(url, loading);
  if (previews.size > URL_PREVIEW_CACHE_SIZE) previews.delete(previews.keys().next().value as string);
  return loading;
}
