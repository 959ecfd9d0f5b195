// The PDF-drawing libraries stay out of what a server or job worker loads at start: only the
// drawing chunk imports them, and nothing imports that chunk but lazily (pdfDrawing).
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { NODE_BUNDLE_OPTIONS } from '../../node-bundle';
import { PROJECT_ROOT } from '../../project-root';
import { pdfDrawing } from '../lazy-drawing';

const DRAWING_PACKAGES = ['pdf-lib', '@pdf-lib/fontkit', 'bidi-js', 'qrcode'];

/** `import ... from "x"`, `import "x"` and `export ... from "x"`; not `import("x")`. */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:^|[\n;])\s*(?:import|export)\s*(?:[^;"'()]*?\sfrom\s*)?["']([^"']+)["']/g)].map((match) => match[1]!);
}

describe('PDF drawing', () => {
  it('is loaded only when something is drawn', async () => {
    const result = await build({
      ...NODE_BUNDLE_OPTIONS,
      entryPoints: { main: path.join(PROJECT_ROOT, 'server/main.ts'), 'worker-main': path.join(PROJECT_ROOT, 'server/jobs/worker-main.ts') },
      outdir: '/bundle',
      outExtension: { '.js': '.mjs' },
      splitting: true,
      write: false,
    });
    const files = new Map(result.outputFiles.map((file) => [path.basename(file.path), file.text]));
    const drawingChunks = [...files].filter(([, code]) => staticImports(code).some((name) => DRAWING_PACKAGES.includes(name)));
    expect(drawingChunks.length).toBeGreaterThan(0);
    for (const entry of ['main.mjs', 'worker-main.mjs']) {
      const loaded = new Set<string>();
      const packages = new Set<string>();
      const visit = (name: string) => {
        if (loaded.has(name)) return;
        loaded.add(name);
        for (const imported of staticImports(files.get(name)!)) {
          if (imported.startsWith('./')) visit(imported.slice(2));
          else packages.add(imported);
        }
      };
      visit(entry);
      expect(DRAWING_PACKAGES.filter((name) => packages.has(name)), entry).toEqual([]);
    }
  }, 60_000);

  it('loads once, with everything the server draws', async () => {
    const drawing = await pdfDrawing();
    expect(await pdfDrawing()).toBe(drawing);
    expect(Object.keys(drawing).sort()).toEqual(
      ['PACKET_PAGE_SIZE', 'PAGE_SIZES', 'createBlobPdfWriter', 'createPdfWriter', 'drawNextLessonPage', 'drawPacketPage', 'drawScan', 'makeAnswerSheetMaster', 'makeCoverSheet'].sort(),
    );
  });
});
