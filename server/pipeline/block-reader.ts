// The uploaded PDF as mupdf reads it: in big blocks, the last few kept. mupdf asks its stream
// for 8 KB at a time and reads each scan image twice (once as the page runs, once more for its
// raw JPEG bytes): on the 142 MB test scan, 39,000 system calls for 323 MB. Blocks of 1 MB, three
// kept, serve both reads of an image from one read of the disk.
import * as fs from 'node:fs';

export const BLOCK_BYTES = 1024 * 1024;
/** Enough for an image met again right after its first read, whatever blocks it straddles. */
const BLOCKS_KEPT = 3;

export class BlockReader {
  /** Block index to its bytes, least recently used first. */
  private readonly blocks = new Map<number, Uint8Array>();

  constructor(
    private readonly fd: number,
    private readonly size: number,
    private readonly blockBytes = BLOCK_BYTES,
  ) {}

  /**
   * Copies up to `length` bytes from `position` of the file into `into` at `offset`; returns
   * how many (fewer at the end of a block, 0 at the end of the file).
   */
  read(into: Uint8Array, offset: number, length: number, position: number): number {
    if (position >= this.size || length <= 0) return 0;
    const index = Math.floor(position / this.blockBytes);
    const block = this.block(index);
    const start = position - index * this.blockBytes;
    const count = Math.min(length, block.length - start);
    into.set(block.subarray(start, start + count), offset);
    return count;
  }

  private block(index: number): Uint8Array {
    const kept = this.blocks.get(index);
    if (kept) {
      this.blocks.delete(index);
      this.blocks.set(index, kept);
      return kept;
    }
    const start = index * this.blockBytes;
    const length = Math.min(this.blockBytes, this.size - start);
    // The least recently used block's memory is reused: no garbage per block.
    let memory: Uint8Array | undefined;
    if (this.blocks.size >= BLOCKS_KEPT) {
      const [oldest, bytes] = this.blocks.entries().next().value as [number, Uint8Array];
      this.blocks.delete(oldest);
      memory = bytes;
    }
    const buffer =
      memory && memory.buffer.byteLength >= length
        ? memory.buffer
        : new ArrayBuffer(this.blockBytes);
    const block = new Uint8Array(buffer, 0, length);
    let filled = 0;
    while (filled < length) {
      const read = fs.readSync(this.fd, block, filled, length - filled, start + filled);
      if (read === 0)
        throw new Error(`the file ended at ${start + filled} bytes, before ${this.size}`);
      filled += read;
    }
    this.blocks.set(index, block);
    return block;
  }
}
