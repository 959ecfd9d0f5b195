// Browser journeys: the real server started as the README says (build, then serve on a fresh
// data folder), driven in Debian's headless Chromium through playwright-core.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    expect: { poll: { timeout: 20_000, interval: 200 } },
    pool: 'forks',
  },
});
