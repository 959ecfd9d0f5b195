import { hashDistance, pageFingerprint, unexplainedInk } from '../server/pipeline/page-fingerprint';
import { scannedSheets } from '../tests/fixtures/filled-sheets';
import { createPrng } from '../tests/fixtures/prng';
const scans: { m: number; s: number; k: number; fp: Awaited<ReturnType<typeof pageFingerprint>> }[] = [];
for await (const sheet of scannedSheets(createPrng(31), { masters: 3, students: 8, rescans: 3 })) scans.push({ m: sheet.master, s: sheet.student, k: sheet.scan, fp: await pageFingerprint(sheet.jpeg) });
const same: (number | null)[] = [], diff: (number | null)[] = [];
for (let i = 0; i < scans.length; i++) for (let j = i + 1; j < scans.length; j++) {
  const a = scans[i]!, b = scans[j]!;
  if (a.m !== b.m) continue;
  const score = unexplainedInk(a.fp.print, b.fp.print);
  (a.s === b.s ? same : diff).push(score);
}
const hist = (xs: (number | null)[]) => { const h: Record<string, number> = {}; for (const x of xs) { const k = x === null ? 'null' : x > 40 ? '>40' : String(x); h[k] = (h[k] ?? 0) + 1; } return h; };
console.log('same', JSON.stringify(hist(same)));
console.log('diff', JSON.stringify(hist(diff)));
