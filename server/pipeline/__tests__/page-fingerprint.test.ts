// Page fingerprints on the product's own lesson masters filled in by simulated students, scanned
// and scanned again with another scanner setup (the bench in bench/page-fingerprint.ts runs the
// same on hundreds of sheets).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MASTERS,
  fillSheet,
  newStudent,
  printMaster,
  randomScanSetup,
  scanSheet,
  writeText,
  newHand,
  PAPER_DPI,
  type ScanSetup,
} from '../../../tests/fixtures/filled-sheets';
import { createPrng } from '../../../tests/fixtures/prng';
import type { GreyRaster } from '../raster';
import {
  HASH_CANDIDATE_DISTANCE,
  hashDistance,
  pageFingerprint,
  samePaper,
  type PageFingerprint,
} from '../page-fingerprint';

const prng = createPrng(30);

/** The scanner setups every sheet is rescanned with: the far ends of what a rescan may be. */
const RESCANS: Partial<ScanSetup>[] = [
  // A cheap grey scanner: 100 dpi, JPEG quality 30, skewed and shifted the most, faded.
  {
    dpi: 100,
    quality: 30,
    tilt: 2,
    shiftXMm: 5,
    shiftYMm: -5,
    contrast: 0.6,
    brightness: 90,
    colour: false,
    turn: 0,
  },
  // Another scanner: 300 dpi colour, another scale and frame, darker, turned with EXIF orientation.
  {
    dpi: 300,
    quality: 95,
    tilt: -2,
    shiftXMm: -5,
    shiftYMm: 5,
    scale: 0.98,
    marginXMm: 6,
    marginYMm: -3,
    contrast: 1.15,
    brightness: -30,
    colour: true,
    turn: 90,
  },
];

interface Sheet {
  first: PageFingerprint;
  rescans: PageFingerprint[];
}

const sheets: Sheet[][] = [];

beforeAll(async () => {
  for (const [m, spec] of MASTERS.slice(0, 2).entries()) {
    const master = await printMaster(spec, prng.fork(`master:${m}`));
    const students: Sheet[] = [];
    for (let s = 0; s < 3; s++) {
      // Students who answer some questions (a name alone is not always enough: see bench/README.md).
      const student = { ...newStudent(prng.fork(`student:${m}/${s}`)), answers: 0.5 };
      const paper = fillSheet(master, student, prng.fork(`sheet:${m}/${s}`));
      const scan = async (setup: Partial<ScanSetup>, label: string) =>
        pageFingerprint(
          await scanSheet(
            paper,
            { ...randomScanSetup(prng.fork(`setup:${label}`)), ...setup },
            prng.fork(`noise:${label}`),
          ),
        );
      students.push({
        first: await scan({ turn: 0 }, `${m}/${s}`),
        rescans: await Promise.all(RESCANS.map((setup, r) => scan(setup, `${m}/${s}/${r}`))),
      });
    }
    sheets.push(students);
  }
}, 240_000);

describe('page fingerprint', () => {
  it('is a 32-byte hash and a print of at most 16 KB', () => {
    const { hash, print } = sheets[0]![0]!.first;
    expect(hash.length).toBe(32);
    expect(print.length).toBeLessThanOrEqual(16 * 1024);
  });

  it('finds every rescan of a sheet: the hash lets it through and samePaper says yes', () => {
    for (const students of sheets) {
      for (const sheet of students) {
        for (const rescan of sheet.rescans) {
          expect(hashDistance(sheet.first.hash, rescan.hash)).toBeLessThanOrEqual(
            HASH_CANDIDATE_DISTANCE,
          );
          expect(samePaper(sheet.first, rescan)).toBe(true);
          expect(samePaper(rescan, sheet.first)).toBe(true);
        }
      }
    }
  });

  it("tells apart different students' sheets filled in on the same master, in any scan", () => {
    for (const students of sheets) {
      for (const [a, sheetA] of students.entries()) {
        for (const [b, sheetB] of students.entries()) {
          if (a === b) continue;
          for (const scan of [sheetA.first, ...sheetA.rescans])
            expect(samePaper(scan, sheetB.first)).toBe(false);
        }
      }
    }
  });

  it('does not match pages of another master', () => {
    for (const a of sheets[0]!)
      for (const b of sheets[1]!) expect(samePaper(a.first, b.first)).toBe(false);
  });

  it('never matches pages with too little ink to tell, not even the same paper twice', async () => {
    // A sheet with only a short note on it: nothing printed to align, little written to compare.
    const note = (seed: string): GreyRaster => {
      const width = Math.round((210 / 25.4) * PAPER_DPI);
      const height = Math.round((297 / 25.4) * PAPER_DPI);
      const paper = { width, height, data: new Uint8Array(width * height).fill(250) };
      writeText(
        paper,
        newHand(createPrng(seed)),
        'thank you',
        width * 0.3,
        height * 0.4,
        width * 0.4,
      );
      return paper;
    };
    const setup = (label: string) => ({ ...randomScanSetup(prng.fork(label)), turn: 0 as const });
    const one = note('one');
    const first = await pageFingerprint(await scanSheet(one, setup('note:1'), prng.fork('n1')));
    const again = await pageFingerprint(await scanSheet(one, setup('note:2'), prng.fork('n2')));
    const other = await pageFingerprint(
      await scanSheet(note('two'), setup('note:3'), prng.fork('n3')),
    );
    expect(samePaper(first, other)).toBe(false);
    expect(samePaper(first, again)).toBe(false);
  }, 60_000);

  it('refuses bytes that are not a print', () => {
    const { first } = sheets[0]![0]!;
    expect(samePaper(first, { hash: first.hash, print: first.print.subarray(0, 100) })).toBe(false);
  });
});
