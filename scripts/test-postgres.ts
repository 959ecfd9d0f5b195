// Runs the server's tests again on PostgreSQL (they run on PGlite in test:unit), so nothing
// passes on one database only. Uses DATABASE_URL, else the local server CI machines have.
// Only the test files that reach a database run again: a file that opens none (the scan
// pipeline's and the PDF writers' own tests) would prove the same thing twice.
//   npm run test:pg                     (every server test file that reaches a database)
//   npm run test:pg -- tests/server/x   (those of them matching a filter, as vitest takes it)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { testFilesOnDatabase } from './database-test-files';

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
  await client.end();
} catch (error) {
  if (process.env.CI) {
    console.error(`PostgreSQL is not reachable at ${url}: ${(error as Error).message}`);
    process.exit(1);
  }
  console.warn(`Skipping the PostgreSQL run: nothing answers at ${url} (set DATABASE_URL).`);
  process.exit(0);
}

const root = join(import.meta.dirname, '..');
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const options = process.argv.slice(2).filter((arg) => arg.startsWith('-'));
const { onDatabase, without } = testFilesOnDatabase(root, ['server', 'tests/server']);
const chosen = filters.length === 0 ? onDatabase : onDatabase.filter((file) => filters.some((filter) => file.includes(filter)));
console.log(`PostgreSQL run: ${chosen.length} test files; ${without.length} open no database and ran once in test:unit.`);
if (chosen.length === 0) process.exit(0);
const result = spawnSync(join(root, 'node_modules/.bin/tsx'), ['scripts/vitest-watchdog.ts', ...chosen, ...options], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url },
});
process.exit(result.status ?? 1);
