import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegComponents } from '../jpeg-header';
import { lumaOfRgb, type GreyRaster } from '../raster';
import { decodeLoaded, scanPageOf } from '../scan-page';

/** Rec. 601 luma of one pixel, as written in the standard (rounded to nearest). */
const expectedLuma = (r: number, g: number, b: number) =>
  Math.round(0.299 * r + 0.587 * g + 0.114 * b);

describe('lumaOfRgb', () => {
  it('keeps grey pixels as they are and weighs colours as a JPEG Y channel does', () => {
    const grey = Uint8Array.from({ length: 256 * 3 }, (_, i) => Math.floor(i / 3));
    expect([...lumaOfRgb(grey, 256)]).toEqual(Array.from({ length: 256 }, (_, v) => v));
    const primaries = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 20, 40, 160]);
    expect([...lumaOfRgb(primaries, 4)]).toEqual([76, 150, 29, expectedLuma(20, 40, 160)]);
  });

  it('gives every pixel its own luma, whatever the length and the alignment of the pixels', () => {
    const bytes = Uint8Array.from({ length: 3 * 64 + 8 }, (_, i) => (i * 97 + (i >> 3)) & 255);
    for (const offset of [0, 1, 2, 3, 4])
      for (const pixels of [1, 3, 4, 5, 7, 8, 61, 64]) {
        const rgb = new Uint8Array(bytes.buffer, offset, 3 * pixels);
        const want = Array.from({ length: pixels }, (_, i) =>
          expectedLuma(rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!),
        );
        const got = [...lumaOfRgb(rgb, pixels)];
        // The standard's weights in 16-bit fixed point: at most one grey level from the exact figure.
        got.forEach((value, i) => expect(Math.abs(value - want[i]!)).toBeLessThanOrEqual(1));
        expect(got).toEqual(want.map((_, i) => lumaOfRgb(rgb.slice(3 * i, 3 * i + 3), 1)[0]));
      }
  });
});

describe('a colour scan JPEG', () => {
  it('decodes to its grey, whole or its top band, with the colour kept only when asked for', async () => {
    // White paper with a blue ink stroke across rows 4-10, inside the top band.
    const width = 64;
    const height = 48;
    const rgb = new Uint8Array(width * height * 3).fill(250);
    for (let y = 4; y <= 10; y++)
      for (let x = 0; x < width; x++) rgb.set([30, 60, 170], (y * width + x) * 3);
    const jpeg = new Uint8Array(
      await sharp(rgb, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 95 })
        .toBuffer(),
    );
    const loaded = { jpeg, dpi: 200, width, height };
    const at = (raster: GreyRaster, x: number, y: number) => raster.data[y * raster.width + x]!;

    const grey = await decodeLoaded(loaded, {});
    expect([grey.width, grey.height, grey.data.length]).toEqual([width, height, width * height]);
    expect(grey.rgb).toBeUndefined();
    const colour = await decodeLoaded(loaded, { colour: true });
    expect(colour.rgb?.length).toBe(width * height * 3);
    const band = await scanPageOf(loaded).jpeg!.top;
    expect(band.width).toBe(width);
    for (const raster of [grey, colour, band]) {
      expect(Math.abs(at(raster, 10, 13) - 250)).toBeLessThanOrEqual(4);
      // libvips's grey (through linear light) and the luma differ a little on coloured ink.
      expect(Math.abs(at(raster, 10, 7) - expectedLuma(30, 60, 170))).toBeLessThanOrEqual(8);
    }
    // The band and the colour page are read through the luma: exactly the JPEG's grey.
    expect(Math.abs(at(band, 10, 7) - expectedLuma(30, 60, 170))).toBeLessThanOrEqual(2);
  });

  it('is told from a grey or a CMYK one by its header, and each decodes to the grey of its pixels', async () => {
    const pixels = new Uint8Array(16 * 16 * 3).fill(200);
    const raw = { raw: { width: 16, height: 16, channels: 3 as const } };
    const colour = new Uint8Array(await sharp(pixels, raw).jpeg().toBuffer());
    const grey = new Uint8Array(await sharp(pixels, raw).toColourspace('b-w').jpeg().toBuffer());
    const cmyk = new Uint8Array(await sharp(pixels, raw).toColourspace('cmyk').jpeg().toBuffer());
    expect([colour, grey, cmyk].map(jpegComponents)).toEqual([3, 1, 4]);
    expect(jpegComponents(new Uint8Array([1, 2, 3]))).toBeNull();
    for (const jpeg of [colour, grey, cmyk]) {
      const raster = await decodeLoaded({ jpeg, dpi: 200, width: 16, height: 16 }, {});
      expect(raster.data.length).toBe(16 * 16);
      // CMYK goes through a colour profile: close to, not exactly, the grey it was made of.
      expect(Math.abs(raster.data[100]! - 200)).toBeLessThanOrEqual(jpeg === cmyk ? 12 : 2);
    }
  });

  it('keeps the colour of a CMYK scan when a colour page image is asked for', async () => {
    const pixels = new Uint8Array(16 * 16 * 3).fill(240);
    for (let i = 0; i < 16 * 8; i++) pixels.set([30, 60, 170], i * 3);
    const cmyk = new Uint8Array(
      await sharp(pixels, { raw: { width: 16, height: 16, channels: 3 } })
        .toColourspace('cmyk')
        .jpeg()
        .toBuffer(),
    );
    const raster = await decodeLoaded(
      { jpeg: cmyk, dpi: 200, width: 16, height: 16 },
      { colour: true },
    );
    expect(raster.rgb?.length).toBe(16 * 16 * 3);
    expect(raster.data.length).toBe(16 * 16);
  });
});
