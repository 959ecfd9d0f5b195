// Peak memory and time of the page reader (openScanPdf + readPage, on one thread, as the job
// reads) on hostile PDFs beside a plain one, each in a fresh process: a flate bomb (a small
// content stream that inflates to BOMB_MB of drawing operators) and a 14,400 pt square page.
//   npx tsx bench/pdf-bombs.ts            (or: npm run bench -- pdf-bombs)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const BOMB_MB = Number(process.env.BOMB_MB ?? 100);

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
  try {
    const line = 'q Q\n';
    const cases = {
      'plain A4 page': pdfWithContent(Buffer.from('BT /F1 12 Tf 72 720 Td (hello) Tj ET\n'.repeat(50)), 595),
      [`flate bomb (${BOMB_MB} MB of operators)`]: pdfWithContent(Buffer.from(line.repeat(Math.ceil((BOMB_MB * 1024 * 1024) / line.length))), 595),
      '14,400 pt page': pdfWithContent(Buffer.from('0 0 m 14400 14400 l S\n'), 14_400),
    };
    console.log('| PDF | bytes | read ms | peak RSS MB | pixels |\n|---|---|---|---|---|');
    for (const [name, bytes] of Object.entries(cases)) {
      const file = join(dir, 'case.pdf');
      writeFileSync(file, bytes);
      const run = spawnSync(join(import.meta.dirname, '../node_modules/.bin/tsx'), [import.meta.filename, '--read', file], { encoding: 'utf8' });
      const result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { ms: number; peakMb: number; pixels: number };
      console.log(`| ${name} | ${bytes.length.toLocaleString('en')} | ${result.ms} | ${result.peakMb} | ${result.pixels.toLocaleString('en')} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
