// Compiles the server to plain JavaScript in build/server (SERVER_BUILD_DIR), which
// `npm run serve` and `npm run worker` run with node: no TypeScript loader in production, some
// 70 MB less resident memory per process. The page worker is an entry of its own, so page-pool
// finds it beside its own code.
//   npx tsx scripts/build-server.ts
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { NODE_BUNDLE_OPTIONS } from '../server/node-bundle';
import { PROJECT_ROOT, SERVER_BUILD_DIR } from '../server/project-root';

/** What `npm run serve` and `npm run worker` start, and the page worker threads. */
const SERVER_ENTRIES = {
  main: 'server/main.ts',
  'worker-main': 'server/jobs/worker-main.ts',
  'page-worker': 'server/pipeline/page-worker.ts',
  'pdf-check-worker': 'server/routes/shared/pdf-check-worker.ts',
  'photo-check-worker': 'server/routes/shared/photo-check-worker.ts',
};

/** Bundles SERVER_ENTRIES as .mjs files into SERVER_BUILD_DIR, replacing what was there. */
export async function buildServer(): Promise<void> {
  await rm(SERVER_BUILD_DIR, { recursive: true, force: true });
  await build({
    ...NODE_BUNDLE_OPTIONS,
    entryPoints: Object.fromEntries(
      Object.entries(SERVER_ENTRIES).map(([name, source]) => [
        name,
        path.join(PROJECT_ROOT, source),
      ]),
    ),
    outdir: SERVER_BUILD_DIR,
    outExtension: { '.js': '.mjs' },
    // Code the entries share lives once, in chunks beside them (in the same folder: page-pool
    // looks for page-worker.mjs next to its own file).
    splitting: true,
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await buildServer();
}
