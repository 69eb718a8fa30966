import { readFileSync, readdirSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';

// The Python edge serves the built app; in development Vite serves it and forwards
// every server route to a locally running edge.
const EDGE_URL = 'http://127.0.0.1:8080';
const PROXIED_PATHS = [
  '/api',
  '/user',
  '/jserror',
  '/realtime',
  '/get_by_ids',
  '/session',
  '/uploads',
  '/get_upload_url',
  '/update_push_token',
  '/url_preview',
];

// Test files share one module graph and one DOM, which saves building both per file (minutes
// on two cores, and a new worker's start, about 2 core-seconds, per file); a file that replaces
// a module (vi.mock) needs a graph of its own, since a module imported earlier by another file
// would keep the real one. The socket and leaving the app, which many tests replace, are mocked
// once for the shared graph instead (src/test/sharedGraph.ts): those files serve their stand-ins.
const TEST_FILES = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `src/${file}`);
const MOCKING_FILES = TEST_FILES.filter((file) => readFileSync(file, 'utf8').includes('vi.mock('));

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      // Anchored so that a client route that merely starts with the same letters
      // (say /users-guide) stays with Vite.
      ...Object.fromEntries(PROXIED_PATHS.map((path) => [`^${path}(/|\\?|$)`, { target: EDGE_URL }])),
      '/socket.io': { target: EDGE_URL, ws: true },
    },
  },
  build: {
    outDir: 'dist',
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    pool: 'threads',
    // Seconds, not milliseconds, on a busy CI machine; the waits inside a test are bounded too.
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        // The app's tests, and the checks of the lint set-up beside this file.
        test: {
          name: 'shared',
          include: [...TEST_FILES, '*.test.js'],
          exclude: MOCKING_FILES,
          isolate: false,
          setupFiles: ['./src/test/sharedGraph.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING_FILES } },
    ],
  },
});
