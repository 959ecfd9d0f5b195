// Where a reading process's memory goes: the test scan read page by page in a plain Node process
// (no server, no database), one step more each time, each in a process of its own, and its peak
// resident memory (VmHWM) against its idle one. Prints a table and writes
// bench/results/pipeline-memory.json. The figures in bench/README.md came from this.
//
//   npx tsx bench/pipeline-memory.ts [--pages 500]
//
// Each step runs as plain JavaScript bundled with esbuild (the TypeScript loader would add some
// 70 MB to every figure), in this order:
//   read      mupdf opens the scan and reads each page as the job thread does (readLoadedPage)
//   band      ... and sharp decodes each page's top band (scanPageOf)
//   codes     ... and zxing reads the codes in its top corners (findCodeInTopBand)
//   pipeline  processPages on the job's thread (workers: 0)
//   worker    processPages with one page worker (the default)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const STEPS = ['read', 'band', 'codes', 'pipeline', 'worker'] as const;
type Step = (typeof STEPS)[number];

const here = fileURLToPath(import.meta.url);
const childAt = process.argv.indexOf('--step');

if (childAt >= 0) {
  await measure(process.argv[childAt + 1] as Step, process.argv[childAt + 2]!);
} else {
  await compare();
}

/** In the child: one step over the whole scan; prints one JSON line. */
async function measure(step: Step, file: string): Promise<void> {
  const { openScanPdf } = await import('../server/pipeline/read-page');
  const { scanPageOf } = await import('../server/pipeline/scan-page');
  const { findCodeInTopBand } = await import('../server/pipeline/find-codes');
  const { processPages } = await import('../server/pipeline/process-pages');
  const status = () => readFileSync('/proc/self/status', 'utf8');
  const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status())![1]) / 1024);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const idle = mb('VmRSS');
  const started = performance.now();
  let coded = 0;
  if (step === 'pipeline' || step === 'worker') {
    await processPages(file, { workers: step === 'worker' ? 1 : 0, onPage: (page) => void (page.code && coded++) });
  } else {
    const pdf = openScanPdf(file);
    for (let n = 1; n <= pdf.pageCount; n++) {
      const loaded = pdf.readLoadedPage(n);
      // A turn of the event loop per page, as the job's own awaits give it.
      await new Promise((resolve) => setImmediate(resolve));
      if (step === 'read') continue;
      const page = scanPageOf(loaded);
      if (!page.jpeg) continue;
      const band = await page.jpeg.top;
      if (step === 'codes' && (await findCodeInTopBand(band, page.jpeg))) coded++;
    }
    pdf.close();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ step, idle_mb: idle, peak_mb: mb('VmHWM'), coded, seconds: Math.round(seconds * 10) / 10 }));
  process.exit(0);
}

/** In the parent: bundles this file (and the page worker beside it), then runs each step. */
async function compare(): Promise<void> {
  const { build } = await import('esbuild');
  const { NODE_BUNDLE_OPTIONS } = await import('../server/node-bundle');
  const { makeScan } = await import('../tests/fixtures/make-scans');
  const pagesAt = process.argv.indexOf('--pages');
  const scan = await makeScan({ pages: pagesAt >= 0 ? Number(process.argv[pagesAt + 1]) : 500, seed: 1 });
  const root = path.resolve(path.dirname(here), '..');
  // Inside the project, so the bundle's package imports resolve from node_modules.
  mkdirSync(path.join(root, 'node_modules', '.cache'), { recursive: true });
  const out = mkdtempSync(path.join(root, 'node_modules', '.cache', 'bench-memory-'));
  try {
    await build({
      ...NODE_BUNDLE_OPTIONS,
      entryPoints: { 'pipeline-memory': here, 'page-worker': path.join(root, 'server/pipeline/page-worker.ts') },
      outdir: out,
      outExtension: { '.js': '.mjs' },
      splitting: true,
    });
    const rows = STEPS.map((step) => {
      const line = execFileSync(process.execPath, [path.join(out, 'pipeline-memory.mjs'), '--step', step, scan.path], { encoding: 'utf8' });
      const row = JSON.parse(line.trim().split('\n').at(-1)!) as Record<string, number | string>;
      console.log(`${String(step).padEnd(9)} idle ${String(row.idle_mb).padStart(4)} MB  peak ${String(row.peak_mb).padStart(4)} MB  ${row.seconds} s`);
      return row;
    });
    const results = path.join(root, 'bench', 'results');
    mkdirSync(results, { recursive: true });
    writeFileSync(path.join(results, 'pipeline-memory.json'), JSON.stringify({ node: process.version, pages: scan.pages.length, rows }, null, 2));
    console.log('wrote bench/results/pipeline-memory.json');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
