import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { jpegHeaderSegments, shownTurn, withShownTurn } from '../jpeg-header';

let jpeg: Uint8Array;

beforeAll(async () => {
  // A JPEG with a JFIF header, dark at its top-left.
  const pixels = new Uint8Array(60 * 40).fill(230);
  for (let y = 0; y < 10; y++) pixels.fill(0, y * 60, y * 60 + 15);
  jpeg = new Uint8Array(await sharp(pixels, { raw: { width: 60, height: 40, channels: 1 } }).jpeg().toBuffer());
});

describe('withShownTurn / shownTurn', () => {
  it('writes an EXIF orientation that browsers and libvips follow, and reads it back', async () => {
    for (const turn of [90, 180, 270] as const) {
      const turned = withShownTurn(jpeg, turn);
      expect(shownTurn(turned)).toBe(turn);
      const meta = await sharp(turned).metadata();
      expect(meta.orientation).toBe({ 90: 6, 180: 3, 270: 8 }[turn]);
      expect([meta.autoOrient.width, meta.autoOrient.height]).toEqual(turn === 180 ? [60, 40] : [40, 60]);
      // Shown turned clockwise: the dark top-left goes to the top-right for a quarter turn.
      const { data, info } = await sharp(turned).autoOrient().raw().toBuffer({ resolveWithObject: true });
      const darkAt = { 90: [info.width - 3, 3], 180: [info.width - 3, info.height - 3], 270: [3, info.height - 3] }[turn];
      expect(data[(darkAt[1]! * info.width + darkAt[0]!) * info.channels]).toBeLessThan(60);
      // The image data is untouched.
      expect(Buffer.from(turned.subarray(turned.length - 200))).toEqual(Buffer.from(jpeg.subarray(jpeg.length - 200)));
    }
  });

  it('keeps a JFIF header first, where JFIF readers look for it', () => {
    const jfif = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const withJfif = new Uint8Array([0xff, 0xd8, ...jfif, ...jpeg.subarray(2)]);
    const turned = withShownTurn(withJfif, 270);
    expect(jpegHeaderSegments(turned).slice(0, 2).map((s) => s.marker)).toEqual([0xe0, 0xe1]);
    expect(shownTurn(turned)).toBe(270);
  });

  it('leaves a JPEG without EXIF as it is when nothing is to be turned', () => {
    expect(withShownTurn(jpeg, 0)).toBe(jpeg);
    expect(shownTurn(jpeg)).toBe(0);
  });

  it("replaces a scanner's own EXIF orientation (PDF viewers ignore it; the page was read as placed)", async () => {
    const tagged = new Uint8Array(await sharp(jpeg).withMetadata({ orientation: 6 }).jpeg().toBuffer());
    expect(shownTurn(tagged)).toBe(90);
    expect(shownTurn(withShownTurn(tagged, 0))).toBe(0);
    expect((await sharp(withShownTurn(tagged, 0)).metadata()).orientation).toBeUndefined();
    const turned = withShownTurn(tagged, 180);
    expect(shownTurn(turned)).toBe(180);
    expect(jpegHeaderSegments(turned).filter((s) => s.marker === 0xe1)).toHaveLength(1);
    expect((await sharp(turned).metadata()).orientation).toBe(3);
  });

  it('reads damaged or foreign bytes without failing', () => {
    expect(shownTurn(new Uint8Array([1, 2, 3]))).toBe(0);
    expect(shownTurn(jpeg.subarray(0, 30))).toBe(0);
    expect(jpegHeaderSegments(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]))).toEqual([]);
    // An EXIF segment cut short: no orientation read past its end.
    const cut = withShownTurn(jpeg, 90).slice(0, 40);
    expect(() => shownTurn(cut)).not.toThrow();
    // Bytes that do not start as a JPEG are left as they are.
    const foreign = new Uint8Array([1, 2, 3, 4]);
    expect(withShownTurn(foreign, 90)).toBe(foreign);
  });
});
