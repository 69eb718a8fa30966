import { vi } from 'vitest';
import { serve } from './standIns';

// The modules the shared graph's test files replace, mocked once for them all: each mock uses
// what the running file serves (src/test/standIns.ts).
vi.mock('../shared/socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('../shared/socket')>();
  const { served } = await import('./standIns');
  return {
    ...original,
    getSocket: () => {
      const { socket } = served();
      return socket ? Promise.resolve(socket) : original.getSocket();
    },
  };
});

vi.mock('../shared/navigation', async (importOriginal) => {
  const original = await importOriginal<typeof import('../shared/navigation')>();
  const { served } = await import('./standIns');
  return { leaveAppFor: (url: string) => (served().leaveAppFor ?? original.leaveAppFor)(url) };
});

// Run before each test file: what one file served is not the next one's.
serve({});
