// Browser File objects for upload tests, built from the machines' FileLike fixtures. A file over
// the 1.5 GB limit gets its size by definition (nobody allocates 1.5 GB in a test).
import type { FileLike } from '../../../machines/upload-dialog/upload-dialog.types';

export function toBrowserFile(like: FileLike): File {
  const small = like.size <= 64 * 1024;
  const file = new File([small ? new Uint8Array(like.size) : new Uint8Array(1)], like.name, {
    type: like.type,
    lastModified: like.lastModified,
  });
  if (!small) Object.defineProperty(file, 'size', { value: like.size });
  return file;
}

export function pdfFile(name: string, size = 2_048, lastModified = 1_700_000_000_000): File {
  return toBrowserFile({ name, size, type: 'application/pdf', lastModified });
}

export function photoFile(name: string, size = 3_000, lastModified = 1_700_000_100_000, type = 'image/jpeg'): File {
  return toBrowserFile({ name, size, type, lastModified });
}
