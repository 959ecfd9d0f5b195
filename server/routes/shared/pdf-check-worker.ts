// The upload-time PDF check on a thread of its own (see bounded-pdf-check.ts): it answers the
// page count or the problem, and the server stops it when it takes too long.
import { parentPort, workerData } from 'node:worker_threads';
import { checkPdf, PdfCheckError, type PdfProblem } from './pdf-check';

export type PdfCheckAnswer = { pageCount: number } | { problem: PdfProblem; detail?: string };

const { path } = workerData as { path: string };
let answer: PdfCheckAnswer;
try {
  answer = checkPdf(path);
} catch (error) {
  answer =
    error instanceof PdfCheckError
      ? { problem: error.problem, detail: error.detail }
      : { problem: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(answer);
