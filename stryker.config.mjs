// Mutation testing of the XState machines (`npm run test:mutation`, not part of `npm test`):
// Stryker changes machines/ one mutant at a time and runs the machines' tests
// (vitest.mutation.config.ts); a mutant no test fails on is a rule nothing checks.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: ['machines/**/*.ts', '!machines/**/__tests__/**'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // A mutant that loops (e.g. an `always` transition whose guard is turned true) counts as killed
  // once it runs this much longer than the tests do unmutated.
  timeoutMS: 2000,
  // No incremental mode: it reuses the last result of every mutant in code run at import (the
  // machine definitions), which no test's coverage names, so new tests never reached them.
  reporters: ['clear-text', 'progress', 'html', 'json'],
  jsonReporter: { fileName: 'test-results/mutation/mutation.json' },
  htmlReporter: { fileName: 'test-results/mutation/index.html' },
  tempDirName: 'test-results/stryker-tmp',
  thresholds: { high: 90, low: 80, break: null },
};
