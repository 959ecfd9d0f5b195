import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockReader } from '../block-reader';

const dir = mkdtempSync(path.join(tmpdir(), 'block-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(bytes: Uint8Array): { fd: number; close: () => void } {
  const file = path.join(dir, `f-${Math.random()}`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  return { fd, close: () => closeSync(fd) };
}

describe('BlockReader', () => {
  const content = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);

  it('reads what the file holds at any position, across block ends and back again', () => {
    const { fd, close } = fileOf(content);
    const reader = new BlockReader(fd, content.length, 1024);
    // Forward in mupdf's way, then re-reading earlier ranges (a second read of an image).
    const reads = [
      [0, 100],
      [100, 2000],
      [1000, 50],
      [9990, 64],
      [3000, 4096],
      [50, 10],
      [5000, 1],
      [2047, 2],
    ] as const;
    for (const [position, length] of reads) {
      const into = new Uint8Array(length + 8);
      let got = 0;
      while (got < length && position + got < content.length) {
        const n = reader.read(into, 8 + got, length - got, position + got);
        expect(n).toBeGreaterThan(0);
        got += n;
      }
      const expected = content.subarray(position, Math.min(content.length, position + length));
      expect(got).toBe(expected.length);
      expect(into.subarray(8, 8 + got)).toEqual(expected);
    }
    close();
  });

  it('answers 0 at and past the end of the file', () => {
    const { fd, close } = fileOf(content);
    const reader = new BlockReader(fd, content.length, 1024);
    expect(reader.read(new Uint8Array(16), 0, 16, content.length)).toBe(0);
    expect(reader.read(new Uint8Array(16), 0, 16, content.length + 5)).toBe(0);
    close();
  });

  it('fails a read when the file is shorter than its size said', () => {
    const { fd, close } = fileOf(content.subarray(0, 1500));
    const reader = new BlockReader(fd, content.length, 1024);
    expect(() => reader.read(new Uint8Array(16), 0, 16, 1200)).toThrow(/ended at 1500 bytes/);
    close();
  });
});
