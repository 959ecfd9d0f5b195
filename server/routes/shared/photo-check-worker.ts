// The upload-time photo check on a thread of its own (see bounded-photo-check.ts): it answers each
// photo's size or the problem, and the server stops it when it takes too long.
import { parentPort, workerData } from 'node:worker_threads';
import type { PhotoMediaType } from '../../pipeline/photo-page';
import { checkPhoto, PhotoCheckError } from './photo-check';

export type PhotoCheckAnswer =
  { sizes: { width: number; height: number }[] } | { index: number; problem: string };

const { photos } = workerData as { photos: { path: string; mediaType: PhotoMediaType }[] };
let answer: PhotoCheckAnswer = { sizes: [] };
for (const [index, photo] of photos.entries()) {
  try {
    (answer as { sizes: { width: number; height: number }[] }).sizes.push(
      await checkPhoto(photo.path, photo.mediaType),
    );
  } catch (error) {
    answer = {
      index,
      problem:
        error instanceof PhotoCheckError ? error.message : `it cannot be read (${String(error)})`,
    };
    break;
  }
}
parentPort?.postMessage(answer);
