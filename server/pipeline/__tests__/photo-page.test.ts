// The photo steps on their own: the projective map, the sheet finder on a drawn sheet, and the split keeping an unread photo on no sheet.
import { describe, expect, it } from 'vitest';
import { findSheet } from '../find-sheet';
import { homography } from '../photo-page';
import { splitIntoSheets, type ResolvedCode } from '../../domain/split';

describe('homography', () => {
  it('maps each of four points onto its partner', () => {
    const from = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 140 },
      { x: 0, y: 140 },
    ];
    const to = [
      { x: 12, y: 30 },
      { x: 95, y: 22 },
      { x: 120, y: 170 },
      { x: 5, y: 160 },
    ];
    const h = homography(from, to);
    for (const [i, { x, y }] of from.entries()) {
      const z = h[6]! * x + h[7]! * y + 1;
      expect((h[0]! * x + h[1]! * y + h[2]!) / z).toBeCloseTo(to[i]!.x, 6);
      expect((h[3]! * x + h[4]! * y + h[5]!) / z).toBeCloseTo(to[i]!.y, 6);
    }
  });
});

describe('findSheet', () => {
  /** A light quadrilateral (with dark print on it) on a darker, striped background, brighter to the left. */
  function drawn(corners: { x: number; y: number }[]) {
    const width = 384;
    const height = 512;
    const data = new Uint8Array(width * height);
    const inside = (x: number, y: number) =>
      corners.every((a, i) => {
        const b = corners[(i + 1) % 4]!;
        return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) >= 0;
      });
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const light = 1 - (0.35 * x) / width;
        const print = y % 40 < 3 && x % 50 > 10;
        data[y * width + x] = inside(x, y)
          ? (print ? 60 : 225) * light
          : (100 + 15 * Math.sin(y / 9)) * light;
      }
    return { width, height, data };
  }

  it('finds the corners of a sheet on its background, from the top-left clockwise', () => {
    const corners = [
      { x: 60, y: 70 },
      { x: 320, y: 58 },
      { x: 340, y: 450 },
      { x: 40, y: 430 },
    ];
    const found = findSheet(drawn(corners));
    expect(found).not.toBeNull();
    for (const [i, corner] of corners.entries()) {
      expect(Math.abs(found![i]!.x - corner.x)).toBeLessThan(3);
      expect(Math.abs(found![i]!.y - corner.y)).toBeLessThan(3);
    }
  });

  it('finds no sheet on a background alone', () => {
    const table = drawn([
      { x: 0, y: 0 },
      { x: 0, y: 0 },
      { x: 0, y: 0 },
      { x: 0, y: 0 },
    ]);
    expect(findSheet(table)).toBeNull();
  });
});

describe('splitting a file with unread photos', () => {
  const lesson: ResolvedCode = {
    kind: 'sheet_page',
    student_id: null,
    lesson_id: 'lesson-1',
    lesson_page_number: 1,
  };
  const resolve = () => lesson;

  it('keeps a photo with no sheet or too blurred on no sheet, with its reason, and places the others by their codes', () => {
    const split = splitIntoSheets(
      [
        { page_number: 1, code: { prefix: 't', id: 'AAAA2222' }, reason: null, blank: false },
        { page_number: 2, code: null, reason: 'no_sheet', blank: false },
        { page_number: 3, code: { prefix: 't', id: 'AAAA2222' }, reason: null, blank: false },
        { page_number: 4, code: null, reason: 'too_blurred', blank: false },
      ],
      resolve,
      1,
    );
    expect(split.sheets.map((sheet) => sheet.pages.map((page) => page.page_number))).toEqual([
      [1],
      [3],
    ]);
    expect(split.ignored_pages).toEqual([
      { page_number: 2, reason: 'no_sheet' },
      { page_number: 4, reason: 'too_blurred' },
    ]);
  });
});
