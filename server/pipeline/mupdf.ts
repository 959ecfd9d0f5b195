// mupdf, with its WebAssembly compiled once per process.
//
// mupdf's own loader compiles its .wasm (10 MB) in every thread that imports it: some 25 MB of
// compiled module each time. The server thread (upload checks, page counts) and every page worker
// use one compiled module instead: this thread compiles it, or takes the one a page worker was
// given (page-pool passes it on), and mupdf's loader is told to instantiate that (its
// `instantiateWasm` hook, read from a global when mupdf is first imported). mupdf is therefore
// imported here, after the hook is set, and everything else takes it from here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The global mupdf's loader reads its module settings from. */
const MUPDF_SETTINGS = '$libmupdf_wasm_Module';

interface MupdfSettings {
  /** Set by page-pool's worker bootstrap: the module the pool compiled. */
  compiled?: WebAssembly.Module;
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => object;
}

const globals = globalThis as unknown as Record<string, MupdfSettings | undefined>;

function compileMupdf(): WebAssembly.Module {
  // The .wasm mupdf's own loader reads, beside its main module.
  const main = createRequire(import.meta.url).resolve('mupdf');
  return new WebAssembly.Module(readFileSync(path.join(path.dirname(main), 'mupdf-wasm.wasm')));
}

/** mupdf's compiled WebAssembly: what page workers are given to instantiate. */
export const mupdfWasm: WebAssembly.Module = globals[MUPDF_SETTINGS]?.compiled ?? compileMupdf();

globals[MUPDF_SETTINGS] = {
  compiled: mupdfWasm,
  instantiateWasm(imports, receive) {
    receive(new WebAssembly.Instance(mupdfWasm, imports), mupdfWasm);
    return {};
  },
};

export const mupdf: typeof import('mupdf') = await import('mupdf');
