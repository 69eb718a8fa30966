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
  },
});
