import { describe, expect, it } from 'vitest';
import { mediaKind } from './media';

describe('mediaKind', () => {
  it('lets the mime type decide', () => {
    expect(mediaKind({ mime_type: 'image/png', url: '/f/a.pdf' })).toBe('image');
    expect(mediaKind({ mime_type: 'audio/ogg', url: '/f/a' })).toBe('audio');
    expect(mediaKind({ mime_type: 'video/mp4', url: '/f/a' })).toBe('video');
    expect(mediaKind({ mime_type: 'video/webm', url: '/f/a.mp4' })).toBe('other');
    expect(mediaKind({ mime_type: 'application/pdf', url: '/f/a' })).toBe('pdf');
  });

  it('falls back to the thumbnail extension, then the url extension', () => {
    expect(mediaKind({ url: '/f/a.pdf', thumbnail: '/t/a.JPG' })).toBe('image');
    expect(mediaKind({ url: '/f/a.mp3?x=1' })).toBe('audio');
    expect(mediaKind({ url: '/f/a.svg' })).toBe('image');
    expect(mediaKind({ url: '/f/a.mov' })).toBe('other');
    expect(mediaKind({ url: '/f.d/file' })).toBe('other');
  });
});
