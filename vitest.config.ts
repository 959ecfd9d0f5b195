// Unit and integration tests. Web tests opt into happy-dom with a file comment;
// model-based tests have their own config (vitest.model.config.ts).
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // Web tests run the screens as in a browser: tus-js-client's browser build (localStorage, XMLHttpRequest).
  resolve: { alias: { 'tus-js-client': 'tus-js-client/lib.esm/browser/index.js' } },
  test: {
    include: ['{src,machines,demo,server,tests,scripts}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'tests/model/**', 'tests/e2e/**'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time, even on two cores (vitest's default there is one): most files
    // wait on a database, a child process or a timer much of the time; the scan pipeline's
    // own worker threads already use both cores when a file needs them.
    maxWorkers: 2,
    globalSetup: ['tests/setup/pglite-image.ts'],
    setupFiles: ['tests/setup/progress-log.ts'],
  },
});
