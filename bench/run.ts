// npm run bench [-- NAME ...]: runs the named benchmarks (default: all), each beside its baseline.
// Results are printed and written to bench/results/<name>.json.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const all = ['lists', 'pipeline', 'pipeline-memory', 'object-storage', 'workflow', 'jobs', 'page-fingerprint', 'pdf-bombs', 'resumable-upload', 'photo-pages', 'printed-text'];
const chosen = process.argv.slice(2).filter((a) => !a.startsWith('-'));
let failed = false;
for (const name of chosen.length > 0 ? chosen : all) {
  const file = join(import.meta.dirname, `${name}.ts`);
  if (!existsSync(file)) {
    console.log(`(no benchmark ${name})`);
    continue;
  }
  console.log(`\n== bench: ${name} ==`);
  const result = spawnSync(join(import.meta.dirname, '../node_modules/.bin/tsx'), [file], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
