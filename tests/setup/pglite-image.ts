// vitest globalSetup: makes the migrated PGlite image the test databases start from
// (tests/helpers/test-db.ts) once, before any test file, in a short-lived process of its own
// (an initdb grows WASM memory to some 800 MB that would otherwise stay in vitest's process).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makePgliteImage, pgliteImagePath } from '../helpers/test-db';

export default function setup(): void {
  // On PostgreSQL (test:pg) the test databases are schemas: no image.
  const image = pgliteImagePath();
  if (process.env.DATABASE_URL || existsSync(image)) return;
  // Images of earlier migrations are of no more use.
  const dir = path.dirname(image);
  if (existsSync(dir)) for (const name of readdirSync(dir)) if (name.startsWith('pglite-migrated-')) rmSync(path.join(dir, name));
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await makePgliteImage();
