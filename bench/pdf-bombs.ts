// Hostile PDFs, two ways.
// 1. Peak memory and time of mupdf reading one page on a thread of its own (openScanPdf +
//    readPage, no limits), each in a fresh process: a plain page, a flate bomb (a small content
//    stream that inflates to BOMB_MB of drawing operators) and a 14,400 pt square page.
// 2. The built server (`npm run serve`'s, embedded PGlite, jobs in it) reading a scan with a flate
//    bomb page in it, beside the same scan without: /healthz's answer times over HTTP while each
//    file is read, as a ratio, and the server's peak memory.
//   npx tsx bench/pdf-bombs.ts            (or: npm run bench -- pdf-bombs)
// Results: printed, and written to bench/results/pdf-bombs.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const BOMB_MB = Number(process.env.BOMB_MB ?? 100);
/** The scan the server reads, with and without bomb pages. */
const SCAN_PAGES = 60;
/** Bomb pages put in the scan: each holds a page worker until the reading time limit stops it. */
const BOMB_PAGES = 3;

/** A one-page PDF whose page content is `content`, deflated, on a `size` pt square page. */
function pdfWithContent(content: Buffer, size: number): Buffer {
  const stream = deflateSync(content, { level: 9 });
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${size} ${size}] /Contents 4 0 R >>`,
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let at = chunks[0]!.length;
  const add = (chunk: Buffer) => {
    chunks.push(chunk);
    at += chunk.length;
  };
  objects.forEach((body, i) => {
    offsets.push(at);
    add(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(at);
  add(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`));
  add(stream);
  add(Buffer.from('\nendstream\nendobj\n'));
  const xref = at;
  add(Buffer.from(`xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

const child = process.argv[2] === '--read';
if (child) {
  const { openScanPdf } = await import('../server/pipeline/read-page');
  const started = Date.now();
  const pdf = openScanPdf(process.argv[3]!);
  const raster = await pdf.readPage(1).catch(() => null);
  pdf.close();
  console.log(JSON.stringify({ ms: Date.now() - started, peakMb: Math.round(process.resourceUsage().maxRSS / 1024), pixels: raster ? raster.width * raster.height : 0 }));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-bombs-'));
  const results: { reader: unknown[]; server: unknown[]; healthz_ratio?: unknown } = { reader: [], server: [] };
  try {
    const line = 'q Q\n';
    const bombPdf = pdfWithContent(Buffer.from(line.repeat(Math.ceil((BOMB_MB * 1024 * 1024) / line.length))), 595);
    const cases = {
      'plain A4 page': pdfWithContent(Buffer.from('BT /F1 12 Tf 72 720 Td (hello) Tj ET\n'.repeat(50)), 595),
      [`flate bomb (${BOMB_MB} MB of operators)`]: bombPdf,
      '14,400 pt page': pdfWithContent(Buffer.from('0 0 m 14400 14400 l S\n'), 14_400),
    };
    console.log('| PDF | bytes | read ms | peak RSS MB | pixels |\n|---|---|---|---|---|');
    for (const [name, bytes] of Object.entries(cases)) {
      const file = join(dir, 'case.pdf');
      writeFileSync(file, bytes);
      const run = spawnSync(join(import.meta.dirname, '../node_modules/.bin/tsx'), [import.meta.filename, '--read', file], { encoding: 'utf8' });
      const result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { ms: number; peakMb: number; pixels: number };
      results.reader.push({ pdf: name, bytes: bytes.length, ...result });
      console.log(`| ${name} | ${bytes.length.toLocaleString('en')} | ${result.ms} | ${result.peakMb} | ${result.pixels.toLocaleString('en')} |`);
    }

    const { healthWhileRead } = await import('./pdf-bombs-server');
    const { makeScan } = await import('../tests/fixtures/make-scans');
    const scan = await makeScan({ pages: SCAN_PAGES, seed: 1 });
    const withBomb = join(dir, 'with-bomb.pdf');
    writeFileSync(withBomb, await withBombPages(readFileSync(scan.path), bombPdf));
    const rows = await healthWhileRead([
      { name: `scan, ${SCAN_PAGES} pages`, path: scan.path },
      { name: `the same scan with ${BOMB_PAGES} flate bomb pages`, path: withBomb },
    ]);
    results.server = rows;
    console.log('\n| file (built server, PGlite) | read s | /healthz answers | median ms | p99 ms | slowest ms | peak RSS MB | pages too complex |\n|---|---|---|---|---|---|---|---|');
    for (const row of rows)
      console.log(`| ${row.file} | ${row.read_seconds} | ${row.answers} | ${row.median_ms} | ${row.p99_ms} | ${row.slowest_ms} | ${row.rss_peak_mb} | ${row.too_complex} |`);
    const [plain, bomb] = rows as [(typeof rows)[number], (typeof rows)[number]];
    results.healthz_ratio = {
      median: Math.round((bomb.median_ms / plain.median_ms) * 100) / 100,
      slowest: Math.round((bomb.slowest_ms / plain.slowest_ms) * 100) / 100,
    };
    console.log(`\n/healthz during the bomb vs. the plain scan: median ×${(results.healthz_ratio as { median: number }).median}, slowest ×${(results.healthz_ratio as { slowest: number }).slowest}`);
    mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
    writeFileSync(join(import.meta.dirname, 'results', 'pdf-bombs.json'), `${JSON.stringify({ measured_at: new Date().toISOString(), bomb_mb: BOMB_MB, ...results }, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `scan` with BOMB_PAGES copies of the bomb's one page put in among its pages (pdf-lib). */
async function withBombPages(scan: Uint8Array, bomb: Uint8Array): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.load(scan);
  // Copied together, the pages share one content stream: the bomb's bytes are in the file once.
  const pages = await pdf.copyPages(await PDFDocument.load(bomb), Array.from({ length: BOMB_PAGES }, () => 0));
  const every = Math.max(1, Math.floor(pdf.getPageCount() / BOMB_PAGES));
  pages.forEach((page, i) => pdf.insertPage(1 + i * (every + 1), page));
  return pdf.save();
}
