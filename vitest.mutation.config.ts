// The machines' own tests, alone: what Stryker runs against each mutant of machines/
// (`npm run test:mutation`, stryker.config.mjs).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['machines/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
  },
});
