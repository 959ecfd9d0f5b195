// A full garbage collection on request, for long runs of steady work.
//
// V8 starts a full (old-generation) collection when the old generation reaches a limit it sets
// after the previous one, at up to about four times what was then alive. While a large scan is
// read, the server thread promotes a little garbage with every page (results waiting their turn,
// database rows) and runs only young-generation collections: measured on a 5000-page file, its
// heap went from 53 to 111 MB with no full collection after the first seconds, so the memory of
// the process grew with the file. A full collection every few hundred pages keeps it at what
// is alive; one costs some 5-20 ms, every 4-5 s of reading.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync' | 'async' }) => void;

let collect: Collect | undefined;

/** V8's gc(), made available once (its flag is read when a context is made). */
function collector(): Collect {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: Collect }).gc;
    if (exposed) collect = exposed;
    else {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    }
  }
  return collect;
}

/** Starts a full collection of this thread's heap (it runs as a task, soon after). */
export function collectGarbageSoon(): void {
  collector()({ type: 'major', execution: 'async' });
}

/**
 * For a thread whose garbage is mostly big buffers, such as a page worker's page rasters. V8
 * starts a full collection by itself only once the memory outside its heap has grown by 64 MB,
 * and rasters outlive the young generation's collections, so only full ones free them: measured
 * on the embedded server, the two page workers held 35-45 MB of dead pixels between them.
 * Returns the check to run after each unit of work (a page): it starts a full collection once
 * the memory outside the heap has grown by more than `budgetBytes` over its lowest level since
 * the last collection. Fixed every 3 pages, the collections cost about as much CPU.
 */
export function collectWhenBuffersGrow(budgetBytes: number): () => void {
  let floor = Infinity;
  let collected = false;
  return () => {
    const outsideHeap = getHeapStatistics().external_memory;
    // The first reading after a collection is the new floor.
    if (collected) {
      floor = outsideHeap;
      collected = false;
      return;
    }
    floor = Math.min(floor, outsideHeap);
    if (outsideHeap - floor > budgetBytes) {
      collectGarbageSoon();
      collected = true;
    }
  };
}
