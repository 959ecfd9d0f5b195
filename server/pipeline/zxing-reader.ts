// zxing-wasm set up for a server: its .wasm comes from node_modules (by default it would fetch it
// from a CDN), and grey input goes in as a binary PGM image (grey buffers given as pixels silently
// find nothing).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  prepareZXingModule,
  readBarcodes,
  type ReadResult,
  type ReaderOptions,
} from 'zxing-wasm/reader';
import type { GreyRaster } from './raster';

let ready: Promise<unknown> | null = null;
let compiling: Promise<WebAssembly.Module> | null = null;

function wasmBytes(): ArrayBuffer {
  const require = createRequire(import.meta.url);
  const bytes = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * zxing's WebAssembly, compiled once per process (off this thread): page workers are started
 * with it (useCompiledZxing) instead of compiling their own. Threads that instantiate one module
 * share its machine code, so each worker of each file no longer compiles 1 MB of WebAssembly or
 * keeps its own copy of the code.
 */
export function compiledZxing(): Promise<WebAssembly.Module> {
  compiling ??= WebAssembly.compile(wasmBytes()).catch((error: unknown) => {
    compiling = null;
    throw error;
  });
  return compiling;
}

/** In a page worker: zxing is instantiated from the module its pool compiled. */
export function useCompiledZxing(module: WebAssembly.Module): void {
  compiling ??= Promise.resolve(module);
}

function ensureReader(): Promise<unknown> {
  ready ??= compiledZxing()
    .then(
      (module) =>
        new Promise((resolve, reject) => {
          prepareZXingModule({
            overrides: {
              // Emscripten's hook for an instance made elsewhere: here, from the shared module.
              instantiateWasm(
                imports: WebAssembly.Imports,
                receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
              ) {
                WebAssembly.instantiate(module, imports).then(
                  (instance) => receive(instance, module),
                  reject,
                );
                return {};
              },
            },
            fireImmediately: true,
          }).then(resolve, reject);
        }),
    )
    .catch((error: unknown) => {
      ready = null;
      throw error;
    });
  return ready;
}

export const QR_READER_OPTIONS: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: true,
  // Rotation and inversion matter for linear codes and negative prints, not for QR on paper.
  tryRotate: false,
  tryInvert: false,
  tryDownscale: true,
  // Symbols found but not decoded come back with isValid false: that is the "unreadable" reason.
  returnErrors: true,
  maxNumberOfSymbols: 4,
};

export async function readQrCodes(
  raster: GreyRaster,
  options: ReaderOptions = {},
): Promise<ReadResult[]> {
  await ensureReader();
  if (raster.width < 21 || raster.height < 21) return [];
  return readBarcodes(greyToPgm(raster), { ...QR_READER_OPTIONS, ...options });
}

/**
 * Binary PGM (P5): zxing-wasm hands it to stb_image, which copies the grey bytes as they are. The
 * RGBA route would cost a 4x copy here and a weighted grey conversion back in zxing-wasm (which
 * gives the same grey values), both on this thread.
 */
function greyToPgm(raster: GreyRaster): Uint8Array {
  const header = Buffer.from(`P5\n${raster.width} ${raster.height}\n255\n`, 'latin1');
  const pixels = raster.width * raster.height;
  const pgm = new Uint8Array(header.length + pixels);
  pgm.set(header);
  pgm.set(raster.data.subarray(0, pixels), header.length);
  return pgm;
}
