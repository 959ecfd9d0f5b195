// The PDF-drawing code, loaded the first time something is drawn rather than when a process
// starts: pdf-lib and fontkit alone add some 60 MB of resident memory once imported (measured
// with node: 41 MB for node itself, 68 with pdf-lib, 74 with fontkit), which a server that only
// reads scans, or a job worker, never needs. Import drawing code through this, never directly
// (a static import would load it at start again); types may be imported directly.
let loading: Promise<typeof import('./drawing')> | null = null;

export function pdfDrawing(): Promise<typeof import('./drawing')> {
  loading ??= import('./drawing');
  return loading;
}
