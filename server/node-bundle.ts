// How server code is bundled for Node with esbuild: by `npm run build` (scripts/build-server.ts)
// and, when the server runs from source, for the page worker threads (pipeline/page-pool.ts).
// Plain JavaScript spares each process and thread the TypeScript loader's memory (tens of MB).
import type { BuildOptions } from 'esbuild';

export const NODE_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: `node${process.versions.node.split('.')[0]}`,
  // Packages stay imports, resolved from node_modules (mupdf and zxing find their .wasm there).
  packages: 'external',
  logLevel: 'warning',
} satisfies BuildOptions;
