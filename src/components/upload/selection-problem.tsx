// Why the chosen files cannot go as one upload, in words, said before anything is sent (the
// contract's UploadedPages: one PDF, or 1 to 50 photos of pages and nothing else).
import { Message } from 'primereact/message';
import type { SelectionProblem } from '../../../machines/upload-dialog/upload-dialog.types';
import { formatBytes } from '../../lib/format';

export const PDF_WITH_PHOTOS_TEXT = 'A PDF and photos cannot go in one upload: choose the PDF alone, or only photos.';

export function selectionProblemText(problem: SelectionProblem): string {
  switch (problem.kind) {
    case 'pdf_with_photos':
      return PDF_WITH_PHOTOS_TEXT;
    case 'too_many_photos':
      return `At most ${problem.max} photos in one upload: ${problem.count} are chosen. Remove ${problem.count - problem.max}, or send the rest in another upload.`;
    case 'photos_too_large':
      return `The photos come to ${formatBytes(problem.bytes)}: at most ${formatBytes(problem.max)} in one upload.`;
    case 'not_a_page':
      return `${problem.name} is neither a PDF nor a photo (JPEG, PNG or HEIC).`;
  }
}

export function SelectionProblemMessage({ problem }: { problem: SelectionProblem | null }) {
  if (!problem) return null;
  // PrimeReact's Message is an alert: it is read out as the choice changes.
  return <Message severity="error" className="upload-selection-problem" text={selectionProblemText(problem)} />;
}
