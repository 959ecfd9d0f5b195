import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { uprightPageImage } from '../page-image';
import type { PageRaster } from '../raster';

/** A portrait page, dark at its top-left corner. */
function page(width = 300, height = 420): PageRaster {
  const data = new Uint8Array(width * height).fill(240);
  for (let y = 0; y < 60; y++) data.fill(10, y * width, y * width + 80);
  return { width, height, data, dpi: 36, source: 'embedded_image' };
}

/** The dark corner of the image as shown (its EXIF orientation followed, as browsers do). */
async function darkCorner(jpeg: Uint8Array): Promise<string> {
  const { data, info } = await sharp(jpeg)
    .autoOrient()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => data[y * info.width + x]!;
  const corners = {
    top_left: at(20, 20),
    top_right: at(info.width - 20, 20),
    bottom_left: at(20, info.height - 20),
    bottom_right: at(info.width - 20, info.height - 20),
  };
  return Object.entries(corners).find(([, v]) => v < 100)?.[0] ?? 'none';
}

describe('uprightPageImage', () => {
  it('encodes a grey JPEG as scanned when the orientation is unknown or upright', async () => {
    for (const orientation of [null, 0] as const) {
      const image = await uprightPageImage(page(), orientation);
      const meta = await sharp(image.jpeg).metadata();
      expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['jpeg', 300, 420, 1]);
      expect([image.width, image.height]).toEqual([300, 420]);
      expect(await darkCorner(image.jpeg)).toBe('top_left');
    }
  });

  it('turns pages upright: a page turned 90 degrees clockwise is turned back', async () => {
    // The scan of a page turned a quarter clockwise has the page's top-left at its top-right.
    const turned: PageRaster = { ...page(420, 300) };
    turned.data.fill(240);
    for (let y = 0; y < 80; y++) turned.data.fill(10, y * 420 + 360, y * 420 + 420);
    const image = await uprightPageImage(turned, 90);
    expect([image.width, image.height]).toEqual([300, 420]);
    expect(await darkCorner(image.jpeg)).toBe('top_left');
    const upsideDown = await uprightPageImage(page(), 180);
    expect(await darkCorner(upsideDown.jpeg)).toBe('bottom_right');
  });

  it('keeps the scan’s own JPEG bytes, a turned page shown upright by its EXIF orientation', async () => {
    const own = new Uint8Array(
      await sharp(Buffer.from(page().data), { raw: { width: 300, height: 420, channels: 1 } })
        .jpeg({ quality: 50 })
        .toBuffer(),
    );
    const raster = { ...page(), jpeg: own };
    expect((await uprightPageImage(raster, 0)).jpeg).toBe(own);
    expect((await uprightPageImage(raster, null)).jpeg).toBe(own);
    // The scan's top-left (dark) as shown, the scan turned back by each quarter.
    const shownDark = { 90: 'bottom_left', 180: 'bottom_right', 270: 'top_right' } as const;
    for (const orientation of [90, 180, 270] as const) {
      const image = await uprightPageImage(raster, orientation);
      expect([image.width, image.height]).toEqual(orientation === 180 ? [300, 420] : [420, 300]);
      expect(await darkCorner(image.jpeg)).toBe(shownDark[orientation]);
      // The scan's bytes, with one EXIF segment more: nothing decoded or encoded again.
      expect(Buffer.from(image.jpeg).subarray(image.jpeg.length - (own.length - 20))).toEqual(Buffer.from(own).subarray(20));
      expect(image.jpeg.length).toBe(own.length + 36);
    }
    const smaller = await uprightPageImage(raster, 0, { maxSide: 210 });
    expect(smaller.jpeg).not.toBe(own);
    expect([smaller.width, smaller.height]).toEqual([150, 210]);
  });

  it('keeps colour when the raster has it', async () => {
    const raster = page(100, 140);
    const rgb = new Uint8Array(100 * 140 * 3).fill(200);
    for (let i = 0; i < rgb.length; i += 3) rgb[i] = 250;
    const image = await uprightPageImage({ ...raster, rgb }, 0);
    expect((await sharp(image.jpeg).metadata()).channels).toBe(3);
  });
});
