import { describe, expect, it } from 'vitest';
import { CHAT_ATTACHMENT_TYPES, MB } from './constants';
import { checkFile, compressedType } from './upload';

describe('checkFile', () => {
  it('accepts an allowed type within the size limit', () => {
    expect(checkFile({ type: 'image/png', size: MB }, 10 * MB)).toBeNull();
  });

  it('refuses other types, naming the allowed ones', () => {
    expect(checkFile({ type: 'application/pdf', size: 1 }, 10 * MB)).toEqual({
      title: 'Invalid File Type',
      message: 'Invalid file type, allowed: jpeg, png, webp',
    });
  });

  it('names the chat attachment types by their extensions', () => {
    expect(checkFile({ type: 'text/plain', size: 1 }, 10 * MB, CHAT_ATTACHMENT_TYPES)?.message).toBe(
      'Invalid file type, allowed: jpeg, png, pdf, docx, mp4',
    );
  });

  it('refuses files over the limit, in KB', () => {
    expect(checkFile({ type: 'image/jpeg', size: 10 * MB + 1 }, 10 * MB)).toEqual({
      title: 'File too large',
      message: 'File too large, max is 10240KB',
    });
  });
});

describe('compressedType', () => {
  it('turns pngs over 5 MB into jpeg and keeps the rest', () => {
    expect(compressedType({ type: 'image/png', size: 6 * MB })).toBe('image/jpeg');
    expect(compressedType({ type: 'image/png', size: MB })).toBe('image/png');
    expect(compressedType({ type: 'image/webp', size: 6 * MB })).toBe('image/webp');
  });
});
