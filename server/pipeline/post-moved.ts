// Handing page data to another thread with its big buffers moved rather than copied: a copy per
// page is as much garbage again for the receiving thread to collect.

/** A worker, or a worker's parent port. */
interface MessageTarget {
  postMessage(value: unknown, transfer?: readonly ArrayBuffer[]): void;
}

/**
 * Posts `message`, moving the buffers of `arrays` that own their whole memory (their views
 * become empty here). Memory owned outside V8 (some native buffers) cannot be moved: the whole
 * message is then copied instead.
 */
export function postMoved(
  target: MessageTarget,
  message: unknown,
  arrays: readonly (Uint8Array | undefined)[],
): void {
  const buffers = new Set<ArrayBuffer>();
  for (const array of arrays) {
    if (
      array &&
      array.buffer instanceof ArrayBuffer &&
      array.byteOffset === 0 &&
      array.byteLength === array.buffer.byteLength
    )
      buffers.add(array.buffer);
  }
  if (buffers.size > 0) {
    try {
      target.postMessage(message, [...buffers]);
      return;
    } catch {
      // Copied below.
    }
  }
  target.postMessage(message);
}
