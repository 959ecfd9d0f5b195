// What kind of file an upload is, by its first bytes (never its name or the browser's word).
import { describe, expect, it } from 'vitest';
import { kindOfFile } from '../photo-check';

describe('kindOfFile', () => {
  it('tells a file by its first bytes, whatever its name', () => {
    expect(kindOfFile(new Uint8Array([0xff, 0xd8, 0xff, 0xe1]))).toBe('image/jpeg');
    expect(kindOfFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
      'image/png',
    );
    expect(kindOfFile(new Uint8Array([0, 0, 0, 24, ...Buffer.from('ftypheic')]))).toBe(
      'image/heic',
    );
    expect(kindOfFile(new Uint8Array([0, 0, 0, 24, ...Buffer.from('ftypmif1')]))).toBe(
      'image/heic',
    );
    expect(kindOfFile(new Uint8Array([0, 0, 0, 24, ...Buffer.from('ftypavif')]))).toBe('other');
    expect(kindOfFile(Buffer.from('%PDF-1.7\n'))).toBe('pdf');
    expect(kindOfFile(Buffer.from('hello'))).toBe('other');
  });
});
