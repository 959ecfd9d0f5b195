// Is an uploaded file a PDF the pipeline can read? Checked before the upload is accepted, cheaply
// and whatever the file's size: the header and trailer bytes, then mupdf through a file
// descriptor (never the whole file in memory) for the page count and the first page.
import * as fs from 'node:fs';
import * as mupdf from 'mupdf';

export type PdfProblem = 'not_a_pdf' | 'truncated' | 'encrypted' | 'no_pages' | 'unreadable' | 'too_complex';

export const PDF_PROBLEM_MESSAGES: Record<PdfProblem, string> = {
  not_a_pdf: 'The file is not a PDF.',
  truncated: 'The PDF is incomplete (truncated): its end is missing.',
  encrypted: 'The PDF is password-protected (encrypted).',
  no_pages: 'The PDF has no pages.',
  unreadable: 'The PDF is damaged and cannot be read.',
  too_complex: 'The PDF could not be read: too complex (checking it took too long or too much memory).',
};

export class PdfCheckError extends Error {
  constructor(
    public readonly problem: PdfProblem,
    public readonly detail?: string,
  ) {
    super(detail ? `${PDF_PROBLEM_MESSAGES[problem]} (${detail})` : PDF_PROBLEM_MESSAGES[problem]);
    this.name = 'PdfCheckError';
  }
}

/** The header may follow some junk (allowed by readers), within the first KB. */
const HEADER_WINDOW = 1024;
/** A complete PDF ends with %%EOF, possibly followed by a little padding. */
const TRAILER_WINDOW = 2048;

/** Returns the page count, or throws PdfCheckError saying what is wrong. */
export function checkPdf(path: string): { pageCount: number } {
  const fd = fs.openSync(path, 'r');
  let fdOpen = true;
  const closeFd = () => {
    if (fdOpen) {
      fdOpen = false;
      fs.closeSync(fd);
    }
  };
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(HEADER_WINDOW, size));
    fs.readSync(fd, head, 0, head.length, 0);
    if (!head.includes('%PDF-')) throw new PdfCheckError('not_a_pdf');
    const tailLength = Math.min(TRAILER_WINDOW, size);
    const tail = Buffer.alloc(tailLength);
    fs.readSync(fd, tail, 0, tailLength, size - tailLength);
    if (!tail.includes('%%EOF')) throw new PdfCheckError('truncated');

    let stream: mupdf.Stream | undefined;
    let doc: mupdf.Document | undefined;
    try {
      stream = new mupdf.Stream({
        fileSize: () => size,
        read: (memory, offset, length, position) => (position >= size ? 0 : fs.readSync(fd, memory, offset, length, position)),
        close: closeFd,
      });
      try {
        doc = mupdf.Document.openDocument(stream, 'application/pdf');
      } catch (error) {
        throw new PdfCheckError('unreadable', messageOf(error));
      }
      if (doc.needsPassword()) throw new PdfCheckError('encrypted');
      let pageCount: number;
      try {
        pageCount = doc.countPages();
      } catch (error) {
        throw new PdfCheckError('unreadable', messageOf(error));
      }
      if (pageCount === 0) throw new PdfCheckError('no_pages');
      try {
        const page = doc.loadPage(0);
        page.getBounds();
        page.destroy();
      } catch (error) {
        throw new PdfCheckError('unreadable', messageOf(error));
      }
      return { pageCount };
    } finally {
      doc?.destroy();
      stream?.destroy();
    }
  } finally {
    closeFd();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
