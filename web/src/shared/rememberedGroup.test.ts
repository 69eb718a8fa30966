import { beforeEach, describe, expect, it } from 'vitest';
import { addRecentGroup, feedPath, recentGroups, rememberGroup } from './rememberedGroup';

const group = (n: number) => ({ _id: `g${n}`, title: `Group ${n}` });

describe('recent groups', () => {
  beforeEach(() => localStorage.clear());

  it('puts the newest first, each group once, at most 5', () => {
    let list = [1, 2, 3, 4, 5, 6].map(group).reduce(addRecentGroup, []);
    expect(list.map((entry) => entry._id)).toEqual(['g6', 'g5', 'g4', 'g3', 'g2']);
    list = addRecentGroup(list, group(4));
    expect(list.map((entry) => entry._id)).toEqual(['g4', 'g6', 'g5', 'g3', 'g2']);
  });

  it('remembers the group for the Feed link and the recent list', () => {
    rememberGroup(group(1));
    rememberGroup(group(2));
    expect(feedPath()).toBe('/g2');
    expect(recentGroups()).toEqual([group(2), group(1)]);
  });

  it('survives a corrupt stored list', () => {
    localStorage.setItem('agora.recent_groups', '{oops');
    expect(recentGroups()).toEqual([]);
  });
});
