import { PATHS, STORAGE_KEYS, groupFeedPath } from '../../shared/constants';
import { readStored } from '../../shared/storage';

export function rememberedGroupId(): string | null {
  return readStored(STORAGE_KEYS.groupId) || null;
}

/** Where "Feed" leads: the group feed the user last used, else choosing a city first. */
export function feedPath(): string {
  const groupId = rememberedGroupId();
  return groupId ? groupFeedPath(groupId) : PATHS.selectCity;
}
