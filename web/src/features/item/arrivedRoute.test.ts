import { beforeEach, describe, expect, it } from 'vitest';
import { arrivedRoute, rememberArrivedRoute } from './arrivedRoute';

const sharers = (id: string, user: string) => ({ _id: id, user_id: user, prev_user_ids: ['poster'] });

describe('arrivedRoute', () => {
  beforeEach(() => localStorage.clear());

  it("keeps the sharer's route across the poster's own link", () => {
    rememberArrivedRoute('item', sharers('r-ann', 'ann'), null);
    rememberArrivedRoute('item', { _id: 'root', user_id: 'poster', prev_user_ids: [] }, 'me');
    expect(arrivedRoute('item', 'root')).toBe('r-ann');
  });

  it("does not replace it with the viewer's own route", () => {
    rememberArrivedRoute('item', sharers('r-ann', 'ann'), 'me');
    rememberArrivedRoute('item', sharers('r-me', 'me'), 'me');
    expect(arrivedRoute('item', 'root')).toBe('r-ann');
  });

  it('falls back to the given route for a post never arrived at through a share', () => {
    expect(arrivedRoute('other', 'root')).toBe('root');
  });
});
