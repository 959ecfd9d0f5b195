// One measured step for bench/object-storage.ts, in a process of its own (its peak resident
// memory, VmHWM, is the figure): storing a scan in the configured blob store, or what a job worker
// does with a stored scan before reading it: a local copy (for object storage, streamed into its
// temporary space) opened by mupdf, with pages read from all over the file. Prints one JSON line.
//
//   [BLOB_STORE=s3://… AWS_…] npx tsx bench/object-storage-copy.ts put <file.pdf>
//   [BLOB_STORE=s3://… AWS_…] npx tsx bench/object-storage-copy.ts read <key>
import { createReadStream } from 'node:fs';
import { loadConfig } from '../server/config';
import { openBlobStore } from '../server/open-blob-store';
import { openScanPdf } from '../server/pipeline/read-page';
import { localCopy } from '../server/workflow/local-copy';
import { memoryOf, toMb } from './serve-processes';

/** Pages read, spread over the whole file: mupdf then touches its start, middle and end. */
const PAGES_READ = 20;

const [step, target] = process.argv.slice(2);
const store = await openBlobStore(loadConfig());
const idle = memoryOf(process.pid, 'VmRSS');
const started = performance.now();
const seconds = () => Math.round((performance.now() - started) / 100) / 10;

if (step === 'put' && target) {
  const info = await store.put(createReadStream(target));
  console.log(
    JSON.stringify({
      step,
      key: info.key,
      size_mb: toMb(info.size),
      seconds: seconds(),
      rss_idle_mb: toMb(idle),
      rss_peak_mb: toMb(memoryOf(process.pid, 'VmHWM')),
    }),
  );
} else if (step === 'read' && target) {
  const copy = await localCopy(store, target);
  const copySeconds = seconds();
  const afterCopy = memoryOf(process.pid, 'VmHWM');
  try {
    const pdf = openScanPdf(copy.path);
    try {
      for (let i = 0; i < PAGES_READ; i++) {
        const page = await pdf.readPage(
          1 + Math.floor((i * (pdf.pageCount - 1)) / (PAGES_READ - 1)),
        );
        void page;
      }
      console.log(
        JSON.stringify({
          step,
          pages: pdf.pageCount,
          copy_seconds: copySeconds,
          seconds: seconds(),
          rss_idle_mb: toMb(idle),
          rss_peak_after_copy_mb: toMb(afterCopy),
          rss_peak_mb: toMb(memoryOf(process.pid, 'VmHWM')),
        }),
      );
    } finally {
      pdf.close();
    }
  } finally {
    await copy.dispose();
  }
} else {
  console.error('usage: npx tsx bench/object-storage-copy.ts put <file.pdf> | read <key>');
  process.exit(2);
}
process.exit(0);
