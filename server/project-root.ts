// The project's folder (the one holding package.json), found from this module's own file. The
// server runs from its TypeScript source (tsx, tests) and from the bundle in build/server
// (`npm start`), which sit at different depths: files the server reads (migrations, the bundled
// contract, the built web app) are found from here, never relative to the module that reads them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The compiled server (scripts/build-server.ts), run by `npm run serve` and `npm run worker`. */
export const SERVER_BUILD_DIR = path.join(PROJECT_ROOT, 'build', 'server');
