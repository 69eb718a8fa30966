import { describe, expect, it } from 'vitest';
import { stepZoom } from './zoom';

describe('stepZoom', () => {
  it('steps and stays within 1 to 8', () => {
    expect(stepZoom(1, 0.2)).toBe(1.2);
    expect(stepZoom(1, -0.2)).toBe(1);
    expect(stepZoom(7.9, 0.7)).toBe(8);
  });
});
