import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { clearAuthKey } from '../shared/session/authKey';

// A busy machine (CI runs every suite on two cores) can take over a second to show a screen.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  // Test files share one module graph (see vite.config.ts): each test starts signed out, as
  // a new visitor's browser would, whatever the one before left loading.
  clearAuthKey();
  // jsdom has no layout, hence no matchMedia: every test runs at a phone width unless it stubs one.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
});
