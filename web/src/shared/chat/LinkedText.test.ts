import { describe, expect, it } from 'vitest';
import { linksIn } from './LinkedText';

describe('links', () => {
  it('finds each link once', () => {
    expect(linksIn('see https://a.test/x and http://b.test, again https://a.test/x')).toEqual(['https://a.test/x', 'http://b.test']);
  });
});
