import { describe, expect, it } from 'vitest';
import { isImageLink, parseTags } from './groupForm';

describe('isImageLink', () => {
  it('takes http(s) links and an empty value only', () => {
    expect(isImageLink('https://cdn.test/a.png')).toBe(true);
    expect(isImageLink('http://cdn.test/a.png')).toBe(true);
    expect(isImageLink('')).toBe(true);
    expect(isImageLink('javascript:alert(1)')).toBe(false);
    expect(isImageLink('cdn.test/a.png')).toBe(false);
  });
});

describe('parseTags', () => {
  it('trims, drops empties and repeats', () => {
    expect(parseTags(' bikes, ,cars,bikes ')).toEqual(['bikes', 'cars']);
  });
});
