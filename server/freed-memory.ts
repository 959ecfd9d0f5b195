// Giving the system back memory the process has freed.
//
// glibc's malloc keeps what the program frees inside its heaps (one per arena) and, by itself,
// only gives back free space at the very top of a heap. The native parts of this server free a
// lot in the middle: V8 compiling the WebAssembly of PGlite, mupdf and zxing, sharp decoding and
// encoding scan pages. Measured on the idle embedded server after its start: glibc held 104 MB
// for 16.5 MB in use, and one malloc_trim(0) took the resident size from 280 to 196 MB.
// malloc_trim(0) hands every whole free page of every arena back; memory in use is not touched.
//
// A buffer V8 has not collected yet is another matter: its memory is only freed when V8 collects
// the buffer, which for native buffers (sharp's) takes a full collection. releaseContents gives
// back the pages of a buffer whose contents are no longer needed at once (see page-worker).
//
// malloc_trim and madvise are called through koffi (a C function interface shipped with prebuilt
// binaries, so nothing is compiled at install). Where there is no glibc (macOS, musl), this does
// nothing.
import { createRequire } from 'node:module';

/**
 * How often a server or worker process gives freed memory back. Every second cost no measurable
 * CPU per scan page; every 250 ms cost ~5% (pages freed and touched again).
 */
export const RETURN_FREED_MEMORY_EVERY_MS = 1000;

type MallocTrim = (pad: number) => number;
type Madvise = (address: bigint, length: number, advice: number) => number;

interface Libc {
  mallocTrim: MallocTrim;
  madvise: Madvise;
  /** The address of a typed array's first byte. */
  addressOf: (array: Uint8Array) => bigint;
}

/** undefined: not looked up yet; null: not available here. */
let libc: Libc | null | undefined;
let timer: NodeJS.Timeout | undefined;

/** This process runs on glibc (Linux), whose malloc_trim this module calls. */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return !!report.header?.glibcVersionRuntime;
}

function findLibc(): Libc | null {
  if (!onGlibc()) return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const library = koffi.load('libc.so.6');
    return {
      mallocTrim: library.func('int malloc_trim(size_t pad)') as MallocTrim,
      madvise: library.func('int madvise(uintptr_t addr, size_t length, int advice)') as Madvise,
      addressOf: (array) => koffi.address(array),
    };
  } catch {
    return null;
  }
}

function glibcFunctions(): Libc | null {
  if (libc === undefined) libc = findLibc();
  return libc;
}

/** Gives the system back the whole pages malloc holds free. False where that is not possible. */
export function returnFreedMemory(): boolean {
  const functions = glibcFunctions();
  if (functions === null) return false;
  functions.mallocTrim(0);
  return true;
}

/**
 * The smallest buffer worth giving back while still allocated (releaseDeadBuffer): glibc's mmap
 * threshold when MALLOC_MMAP_THRESHOLD_ sets it (`npm run serve` and `npm run worker` do), null
 * otherwise. Set, every buffer from that size on is mapped on its own and unmapped when freed, so
 * giving its pages back early costs nothing more. Unset, glibc serves big buffers from its heaps
 * and soon reuses them: pages given back would be faulted in again (measured in the scan pipeline:
 * 10% more CPU per page), so nothing is given back early.
 */
export function deadBufferThreshold(env: Record<string, string | undefined> = process.env): number | null {
  const threshold = Number(env.MALLOC_MMAP_THRESHOLD_);
  return env.MALLOC_MMAP_THRESHOLD_ !== undefined && Number.isInteger(threshold) && threshold > 0 ? threshold : null;
}

/**
 * releaseContents for a buffer whose contents are dead, where that pays off (deadBufferThreshold):
 * the scan pipeline's page rasters and zxing's input copies.
 */
export function releaseDeadBuffer(array: Uint8Array): number {
  const threshold = deadBufferThreshold();
  if (threshold === null || array.byteLength < threshold) return 0;
  return releaseContents(array);
}

/** Linux's memory page, the unit madvise works in. */
const MEMORY_PAGE = 4096n;
/** madvise: the pages' contents are not needed; they read as zeros if touched again. */
const MADV_DONTNEED = 4;
/** Buffers smaller than this are not worth a call (and share their pages with others). */
const RELEASE_AT_LEAST_BYTES = 64 * 1024;

/**
 * Gives the system back the memory pages that lie wholly inside `array`, whose contents the
 * caller no longer needs: the buffer stays allocated (V8 frees it when it collects the buffer),
 * but no longer counts in the process's resident memory. Only the array's own bytes are touched
 * (a page shared with a neighbouring allocation is kept), so this is safe for any buffer,
 * malloc's or V8's, as long as nothing reads its contents afterwards: they then read as zeros.
 * Never for WebAssembly memory. Returns the bytes given back (0 where that is not possible).
 */
export function releaseContents(array: Uint8Array): number {
  if (array.byteLength < RELEASE_AT_LEAST_BYTES) return 0;
  const functions = glibcFunctions();
  if (functions === null) return 0;
  const start = functions.addressOf(array);
  const from = ((start + MEMORY_PAGE - 1n) / MEMORY_PAGE) * MEMORY_PAGE;
  const to = ((start + BigInt(array.byteLength)) / MEMORY_PAGE) * MEMORY_PAGE;
  if (to <= from) return 0;
  const length = Number(to - from);
  return functions.madvise(from, length, MADV_DONTNEED) === 0 ? length : 0;
}

/**
 * Gives freed memory back now and then every RETURN_FREED_MEMORY_EVERY_MS for as long as the
 * process runs (once per process, however often it is called). The timer keeps no process alive.
 */
export function keepReturningFreedMemory(): void {
  if (timer !== undefined || !returnFreedMemory()) return;
  timer = setInterval(returnFreedMemory, RETURN_FREED_MEMORY_EVERY_MS);
  timer.unref();
}
