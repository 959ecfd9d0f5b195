// Model-based tests: each machine's graph is walked path by path through the real screen on MSW.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['tests/model/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    testTimeout: 120_000,
    setupFiles: ['tests/model/setup.ts'],
  },
});
