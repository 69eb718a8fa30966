import { readStored, removeStored, writeStored } from './storage';

/** Set for this tab while it reloads to fetch a new release: a second failure is not reloaded again. */
const RELOADED_KEY = 'agora.stale_build_reloaded';

/**
 * Whether an error is the browser failing to load a part of the app that loads on demand:
 * after a release the old build's files are gone (Chrome, Edge: "Failed to fetch dynamically
 * imported module"; Safari: "Importing a module script failed"; Firefox: "error loading
 * dynamically imported module"; Vite: "Unable to preload CSS").
 */
export function isStaleBuildError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|importing a module script failed|unable to preload css/i.test(message);
}

/** Loads a part of the app on demand; one that loads says the build is current again (see `reloadForNewBuild`). */
export async function importPart<T>(load: () => Promise<T>): Promise<T> {
  const loaded = await load();
  removeStored(RELOADED_KEY, 'session');
  return loaded;
}

/** Whether this tab has not reloaded for a new build since a part last loaded. */
export function mayReloadForNewBuild(): boolean {
  return readStored(RELOADED_KEY, 'session') === null;
}

/**
 * Reloads the page (where the error page shows: the address the person was going to) onto
 * the new build, remembering it for the tab: failing again, the error page says so instead
 * of reloading in circles.
 */
export function reloadForNewBuild(): void {
  writeStored(RELOADED_KEY, '1', 'session');
  window.location.reload();
}
