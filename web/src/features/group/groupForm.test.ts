import { describe, expect, it } from 'vitest';
import { isImageLink, parseTags } from './groupForm';

describe('isImageLink', () => {
  it('takes uploaded pictures, http(s) links and an empty value only', () => {
    expect(isImageLink('/uploads/6b04db3b52c4301f631003fb.png')).toBe(true);
    expect(isImageLink('https://cdn.test/a.png')).toBe(true);
    expect(isImageLink('http://cdn.test/a.png')).toBe(true);
    expect(isImageLink('')).toBe(true);
    expect(isImageLink('/etc/passwd')).toBe(false);
    expect(isImageLink('/uploads/../x')).toBe(false);
    expect(isImageLink('javascript:alert(1)')).toBe(false);
    expect(isImageLink('cdn.test/a.png')).toBe(false);
  });
});

describe('parseTags', () => {
  it('trims, drops empties and repeats', () => {
    expect(parseTags(' bikes, ,cars,bikes ')).toEqual(['bikes', 'cars']);
  });
});
