// Runs the server's tests again on PostgreSQL (they run on PGlite in test:unit), so nothing
// passes on one database only. Uses DATABASE_URL, else the local server CI machines have.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';

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
const result = spawnSync(join(root, 'node_modules/.bin/tsx'), ['scripts/vitest-watchdog.ts', 'server', 'tests/server', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url },
});
process.exit(result.status ?? 1);
