/** A stable background colour for a seed such as a name or id, dark enough for white initials (4.5:1 at any hue). */
export function seedColor(seed: string): string {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 55% 30%)`;
}

/**
 * The first letters of the first and last words that start with a letter or digit: a
 * bracketed or punctuated word ('(Amsterdam)', '-') is decoration, not a name.
 */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => /^[\p{L}\p{N}]/u.test(word));
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => Array.from(word ?? '')[0]?.toUpperCase() ?? '').join('') || '?';
}
