// Model-based tests: each machine's graph is walked path by path through the real screen on MSW.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // The screens run as in a browser: tus-js-client's browser build (localStorage, XMLHttpRequest).
  resolve: { alias: { 'tus-js-client': 'tus-js-client/lib.esm/browser/index.js' } },
  test: {
    include: ['tests/model/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    testTimeout: 120_000,
    setupFiles: ['tests/model/setup.ts'],
  },
});
