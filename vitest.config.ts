// Unit and integration tests. Web tests opt into happy-dom with a file comment;
// model-based tests have their own config (vitest.model.config.ts).
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['{src,machines,server,tests,scripts}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'tests/model/**', 'tests/e2e/**'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['tests/setup/pglite-image.ts'],
    setupFiles: ['tests/setup/progress-log.ts'],
  },
});
