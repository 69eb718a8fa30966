import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { importPart, isStaleBuildError, mayReloadForNewBuild, reloadForNewBuild } from './staleBuild';

describe('a part of the app from an older build', () => {
  let reload: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    sessionStorage.clear();
    reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is told by the messages browsers give', () => {
    expect(isStaleBuildError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isStaleBuildError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isStaleBuildError(new TypeError('error loading dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isStaleBuildError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
    expect(isStaleBuildError(new TypeError('x is undefined'))).toBe(false);
  });

  it('reloads the page once; then not until a part loaded again', async () => {
    expect(mayReloadForNewBuild()).toBe(true);
    reloadForNewBuild();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(mayReloadForNewBuild()).toBe(false);
    await expect(importPart(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /x.js')))).rejects.toThrow();
    expect(mayReloadForNewBuild()).toBe(false);
    expect(await importPart(() => Promise.resolve('page'))).toBe('page');
    expect(mayReloadForNewBuild()).toBe(true);
  });
});
