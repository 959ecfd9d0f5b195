// Bundles the contract check (tests/contract/contract-test.ts) with the contract and its
// libraries into one file, build/contract-check.mjs, that a backend team runs with Node alone:
//   node contract-check.mjs --base-url http://their-server --email E --password P
//   npx tsx scripts/build-contract-check.ts   (npm run contract:bundle-check)
import path from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../server/project-root';

export const CONTRACT_CHECK_BUNDLE = path.join(PROJECT_ROOT, 'build', 'contract-check.mjs');

await build({
  entryPoints: [path.join(PROJECT_ROOT, 'tests/contract/contract-test.ts')],
  outfile: CONTRACT_CHECK_BUNDLE,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Some bundled libraries are CommonJS and require Node's own modules.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});
console.log(`${path.relative(process.cwd(), CONTRACT_CHECK_BUNDLE)} written`);
