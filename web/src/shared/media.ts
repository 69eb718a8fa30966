import { MEDIA_EXTENSIONS } from './constants';

export type MediaKind = keyof typeof MEDIA_EXTENSIONS | 'other';

export interface MediaItem {
  mime_type?: string | null;
  url: string;
  thumbnail?: string | null;
}

function kindOfMime(mime: string): MediaKind {
  if (mime === 'application/pdf') return 'pdf';
  const top = mime.split('/')[0];
  if (top === 'image' || top === 'audio') return top;
  // Only mp4 plays everywhere, so other video types are offered as plain files.
  if (mime === 'video/mp4') return 'video';
  return 'other';
}

function extensionOf(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const dot = path.lastIndexOf('.');
  return dot < 0 || dot < path.lastIndexOf('/') ? '' : path.slice(dot + 1).toLowerCase();
}

/** The mime type decides; without one, the extension of the thumbnail or else the url does. */
export function mediaKind(media: MediaItem): MediaKind {
  if (media.mime_type) return kindOfMime(media.mime_type.toLowerCase());
  for (const url of [media.thumbnail, media.url]) {
    const extension = url ? extensionOf(url) : '';
    const kind = (Object.keys(MEDIA_EXTENSIONS) as (keyof typeof MEDIA_EXTENSIONS)[]).find((key) =>
      (MEDIA_EXTENSIONS[key] as readonly string[]).includes(extension),
    );
    if (kind) return kind;
  }
  return 'other';
}
