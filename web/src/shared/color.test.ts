import { expect, it } from 'vitest';
import { initials, seedColor } from './color';

it('takes the first letters of the first and last names', () => {
  expect(initials('Ada Lovelace')).toBe('AL');
  expect(initials('  ada  king lovelace ')).toBe('AL');
  expect(initials('Émile')).toBe('É');
  expect(initials('')).toBe('?');
});

it('uses only words that start with a letter or digit', () => {
  expect(initials('Walker One (Amsterdam)')).toBe('WO');
  expect(initials('- Bob -')).toBe('B');
  expect(initials('(( ))')).toBe('?');
});

it('derives the same colour from the same seed', () => {
  expect(seedColor('Ada')).toBe(seedColor('Ada'));
  expect(seedColor('Ada')).not.toBe(seedColor('Grace'));
  expect(seedColor('Ada')).toMatch(/^hsl\(\d+ 55% 30%\)$/);
});
