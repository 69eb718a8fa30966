import { PATHS, RECENT_GROUPS_MAX, STORAGE_KEYS, groupFeedPath } from './constants';
import { readStored, writeStored } from './storage';

export function rememberedGroupId(): string | null {
  return readStored(STORAGE_KEYS.groupId) || null;
}

/** Where "Feed" leads: the group feed the user last used, else choosing a city first. */
export function feedPath(): string {
  const groupId = rememberedGroupId();
  return groupId ? groupFeedPath(groupId) : PATHS.selectCity;
}

export interface RecentGroup {
  _id: string;
  title: string;
}

/** The list with `group` moved to the front, each group once, at most the spec's count. */
export function addRecentGroup(list: readonly RecentGroup[], group: RecentGroup): RecentGroup[] {
  return [group, ...list.filter((entry) => entry._id !== group._id)].slice(0, RECENT_GROUPS_MAX);
}

export function recentGroups(): RecentGroup[] {
  try {
    const parsed: unknown = JSON.parse(readStored(STORAGE_KEYS.recentGroups) ?? '[]');
    return Array.isArray(parsed) ? (parsed as RecentGroup[]).filter((entry) => typeof entry?._id === 'string') : [];
  } catch {
    // A corrupt entry is as good as none.
    return [];
  }
}

/** Makes `group` the feed "Feed" opens, and the first of the recent groups. */
export function rememberGroup(group: RecentGroup): void {
  writeStored(STORAGE_KEYS.groupId, group._id);
  writeStored(STORAGE_KEYS.recentGroups, JSON.stringify(addRecentGroup(recentGroups(), { _id: group._id, title: group.title })));
}
