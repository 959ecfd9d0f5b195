// Giving the system back memory the process has freed.
//
// glibc's malloc keeps what the program frees inside its heaps (one per arena) and, by itself,
// only gives back free space at the very top of a heap. The native parts of this server free a
// lot in the middle: V8 compiling the WebAssembly of PGlite, mupdf and zxing, sharp decoding and
// encoding scan pages. Measured on the idle embedded server after its start: glibc held 104 MB
// for 16.5 MB in use, and one malloc_trim(0) took the resident size from 280 to 196 MB.
// malloc_trim(0) hands every whole free page of every arena back; memory in use is not touched.
//
// malloc_trim is called through koffi (a C function interface shipped with prebuilt binaries, so
// nothing is compiled at install). Where there is no glibc (macOS, musl), this does nothing.
import { createRequire } from 'node:module';

/**
 * How often a server or worker process gives freed memory back. Every second cost no measurable
 * CPU per scan page; every 250 ms cost ~5% (pages freed and touched again).
 */
export const RETURN_FREED_MEMORY_EVERY_MS = 1000;

type MallocTrim = (pad: number) => number;

/** undefined: not looked up yet; null: not available here. */
let mallocTrim: MallocTrim | null | undefined;
let timer: NodeJS.Timeout | undefined;

/** This process runs on glibc (Linux), whose malloc_trim this module calls. */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return !!report.header?.glibcVersionRuntime;
}

function findMallocTrim(): MallocTrim | null {
  if (!onGlibc()) return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as MallocTrim;
  } catch {
    return null;
  }
}

/** Gives the system back the whole pages malloc holds free. False where that is not possible. */
export function returnFreedMemory(): boolean {
  if (mallocTrim === undefined) mallocTrim = findMallocTrim();
  if (mallocTrim === null) return false;
  mallocTrim(0);
  return true;
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
