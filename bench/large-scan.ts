// A big scan for the memory benchmarks (bench/pipeline.ts, bench/object-storage.ts): copies of a
// made scan joined into one file, cached next to it. Needs qpdf (apt-get install qpdf).
import { execFile } from 'node:child_process';
import { existsSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A big scan made of copies of `source`, cached next to it. Joined by qpdf: pdfunite's output
 * has a wrong /Size in its trailer, which makes mupdf rebuild the cross-reference table by
 * reading the whole file: a cost the small file does not have, so the two would not compare.
 */
export async function largeFile(source: string, targetMb: number): Promise<string> {
  const out = path.join(path.dirname(source), `large-${targetMb}mb-${path.basename(source)}`);
  if (existsSync(out)) return out;
  const copies = Math.max(1, Math.round((targetMb * 1e6) / statSync(source).size));
  // One name per copy: qpdf would share the objects of a file named twice, making no bigger file.
  const names = await mkdtemp(path.join(tmpdir(), 'bench-copies-'));
  const inputs = Array.from({ length: copies }, (_, i) => path.join(names, `copy-${i}.pdf`));
  for (const input of inputs) symlinkSync(path.resolve(source), input);
  try {
    // Moved into place when whole: a run stopped half-way leaves nothing that looks made.
    await run('qpdf', ['--empty', '--pages', ...inputs, '--', `${out}.tmp`], { maxBuffer: 1 << 26 });
    renameSync(`${out}.tmp`, out);
  } finally {
    await rm(names, { recursive: true, force: true });
  }
  return out;
}

