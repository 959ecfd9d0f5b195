// Writes a PDF of any length page by page with flat memory: packets and return files can hold
// 2000 scanned pages (gigabytes), which neither pdf-lib's nor mupdf's `save` can build in memory.
// Pages are drawn with pdf-lib (the same page drawers as every other printed page), a small chunk
// at a time; each chunk's objects are numbered after the previous chunk's, written out, and
// dropped. The file ends with one page tree over every page, the catalog and the cross-reference
// table. Bytes go to a file, or straight into the blob store (hashed on the way, no copy).
import { open, rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { BlobInfo, BlobStore } from '../blob-store';
import { deflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFFlateStream, PDFHexString, PDFName, PDFNumber, PDFRef, type PDFObject } from 'pdf-lib';
import { embedPrintFonts, type PageDrawer, type PageSize, type PrintFonts } from './pdf-writer';

/** Pages drawn in one pdf-lib document before it is written out (memory: its images). */
export const PAGES_PER_CHUNK = 50;
/** Bytes gathered before one write call. */
const WRITE_BATCH_BYTES = 4 * 1024 * 1024;

const PAGES_OBJECT = 1;
const CATALOG_OBJECT = 2;
const INFO_OBJECT = 3;
const FIRST_CHUNK_OBJECT = 4;

export interface StreamingPdfWriter<Result = { pages: number; bytes: number }> {
  addPage(size: PageSize, draw: PageDrawer): Promise<void>;
  readonly pageCount: number;
  /** Writes the page tree and cross-reference table and closes the output. */
  finish(): Promise<Result>;
  /** Drops the unfinished output. */
  abort(): Promise<void>;
}

/** Where the bytes go, in order. */
interface ByteSink<Result> {
  write(bytes: Buffer): Promise<void>;
  close(): Promise<Result>;
  abort(): Promise<void>;
}

export interface StreamingPdfWriterOptions {
  title?: string;
  pagesPerChunk?: number;
}

interface Chunk {
  doc: PDFDocument;
  fonts: PrintFonts;
  firstObject: number;
  pageRefs: PDFRef[];
}

/** Creates `path` (it must not exist) and returns a writer for it. */
export async function createStreamingPdfWriter(path: string, options: StreamingPdfWriterOptions = {}): Promise<StreamingPdfWriter> {
  const handle = await open(path, 'wx');
  let written = 0;
  const sink: ByteSink<void> = {
    async write(bytes) {
      let at = 0;
      while (at < bytes.length) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
      written += bytes.length;
    },
    async close() {
      await handle.close();
    },
    async abort() {
      await handle.close().catch(() => undefined);
      await rm(path, { force: true });
    },
  };
  const writer = new ChunkedPdfWriter(sink, options);
  return {
    addPage: (size, draw) => writer.addPage(size, draw),
    get pageCount() {
      return writer.pageCount;
    },
    finish: async () => {
      await writer.finish();
      return { pages: writer.pageCount, bytes: written };
    },
    abort: () => writer.abort(),
  };
}

/**
 * A writer whose bytes go straight into the blob store (hashed as they stream, stored when
 * finished): no scratch file to write and copy. Generated PDFs are not uploads, so the upload
 * size limit does not apply.
 */
export function createBlobPdfWriter(
  blobStore: BlobStore,
  options: StreamingPdfWriterOptions & { signal?: AbortSignal } = {},
): StreamingPdfWriter<{ pages: number; blob: BlobInfo }> {
  const stream = new PassThrough({ highWaterMark: WRITE_BATCH_BYTES });
  const stored = blobStore.put(stream, { maxBytes: Number.POSITIVE_INFINITY, ...(options.signal ? { signal: options.signal } : {}) });
  let failure: unknown = null;
  stored.catch((error: unknown) => {
    failure = error;
  });
  const sink: ByteSink<BlobInfo> = {
    async write(bytes) {
      if (failure !== null) throw failure;
      if (!stream.write(bytes)) {
        await new Promise<void>((resolve, reject) => {
          const done = () => {
            stream.off('drain', done);
            stream.off('close', done);
            if (failure !== null) reject(failure as Error);
            else resolve();
          };
          stream.on('drain', done);
          stream.on('close', done);
          stored.catch(() => done());
        });
      }
    },
    async close() {
      stream.end();
      return stored;
    },
    async abort() {
      stream.destroy(new Error('PDF not finished'));
      await stored.catch(() => undefined);
    },
  };
  const writer = new ChunkedPdfWriter(sink, options);
  return {
    addPage: (size, draw) => writer.addPage(size, draw),
    get pageCount() {
      return writer.pageCount;
    },
    finish: async () => ({ pages: writer.pageCount, blob: await writer.finish() }),
    abort: () => writer.abort(),
  };
}

class ChunkedPdfWriter<Result> {
  private offset = 0;
  /** Byte offset of each object, by object number (0 = not written). */
  private readonly offsets: number[] = [];
  private readonly pageObjects: number[] = [];
  private nextObject = FIRST_CHUNK_OBJECT;
  private chunk: Chunk | null = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;
  private readonly pagesPerChunk: number;

  constructor(
    private readonly sink: ByteSink<Result>,
    private readonly options: StreamingPdfWriterOptions,
  ) {
    this.pagesPerChunk = Math.max(1, options.pagesPerChunk ?? PAGES_PER_CHUNK);
    // The binary comment tells transfer tools the file is binary.
    this.push(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]));
  }

  get pageCount(): number {
    return this.pageObjects.length + (this.chunk?.pageRefs.length ?? 0);
  }

  async addPage(size: PageSize, draw: PageDrawer): Promise<void> {
    if (this.closed) throw new Error('PDF writer already finished');
    const chunk = this.chunk ?? (this.chunk = await this.newChunk());
    const page = chunk.doc.addPage([size[0], size[1]]);
    await draw({ page, fonts: chunk.fonts });
    chunk.pageRefs.push(page.ref);
    if (chunk.pageRefs.length >= this.pagesPerChunk) await this.writeChunk();
  }

  async finish(): Promise<Result> {
    if (this.closed) throw new Error('PDF writer already finished');
    try {
      await this.writeChunk();
      if (this.pageObjects.length === 0) throw new Error('A PDF needs at least one page');
      const kids = this.pageObjects.map((n) => `${n} 0 R`).join(' ');
      this.writeObject(PAGES_OBJECT, Buffer.from(`<< /Type /Pages /Count ${this.pageObjects.length} /Kids [${kids}] >>`, 'latin1'));
      this.writeObject(CATALOG_OBJECT, Buffer.from(`<< /Type /Catalog /Pages ${PAGES_OBJECT} 0 R >>`, 'latin1'));
      const title = this.options.title ? ` /Title ${PDFHexString.fromText(this.options.title).toString()}` : '';
      this.writeObject(INFO_OBJECT, Buffer.from(`<< /Producer (bible-study-portal)${title} >>`, 'latin1'));

      const size = this.nextObject;
      const xrefOffset = this.offset;
      const lines = ['xref', `0 ${size}`, '0000000000 65535 f '];
      for (let n = 1; n < size; n++) {
        const at = this.offsets[n];
        lines.push(at ? `${String(at).padStart(10, '0')} 00000 n ` : '0000000000 65535 f ');
      }
      lines.push('trailer', `<< /Size ${size} /Root ${CATALOG_OBJECT} 0 R /Info ${INFO_OBJECT} 0 R >>`, 'startxref', String(xrefOffset), '%%EOF', '');
      this.push(Buffer.from(lines.join('\n'), 'latin1'));
      await this.drain();
    } catch (error) {
      await this.abort();
      throw error;
    }
    this.closed = true;
    return this.sink.close();
  }

  async abort(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.chunk = null;
    this.pending = [];
    await this.sink.abort();
  }

  private async newChunk(): Promise<Chunk> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    // The chunk's own catalog and page tree keep their low numbers and are never written;
    // everything made from here on is numbered after the previous chunk's objects.
    const firstObject = Math.max(this.nextObject, doc.context.largestObjectNumber + 1);
    doc.context.largestObjectNumber = firstObject - 1;
    return { doc, fonts: await embedPrintFonts(doc), firstObject, pageRefs: [] };
  }

  private async writeChunk(): Promise<void> {
    const chunk = this.chunk;
    if (chunk === null) return;
    this.chunk = null;
    if (chunk.pageRefs.length > 0) {
      await chunk.doc.flush();
      const parent = PDFRef.of(PAGES_OBJECT);
      for (const ref of chunk.pageRefs) chunk.doc.context.lookup(ref, PDFDict).set(PDFName.of('Parent'), parent);
      for (const [ref, object] of chunk.doc.context.enumerateIndirectObjects()) {
        if (ref.objectNumber < chunk.firstObject) continue;
        this.writeObject(ref.objectNumber, serialise(object));
        if (this.pendingBytes >= WRITE_BATCH_BYTES) await this.drain();
      }
      this.pageObjects.push(...chunk.pageRefs.map((ref) => ref.objectNumber));
      this.nextObject = chunk.doc.context.largestObjectNumber + 1;
    }
    await this.drain();
  }

  private writeObject(objectNumber: number, body: Buffer): void {
    this.offsets[objectNumber] = this.offset;
    this.push(Buffer.from(`${objectNumber} 0 obj\n`, 'latin1'));
    this.push(body);
    this.push(Buffer.from('\nendobj\n', 'latin1'));
  }

  private push(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.offset += bytes.length;
  }

  private async drain(): Promise<void> {
    if (this.pending.length === 0) return;
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.sink.write(bytes);
  }
}

/**
 * An object's bytes. Page content streams are compressed with Node's zlib here: pdf-lib would
 * use pako (JavaScript), a quarter of the time of a drawn page.
 */
function serialise(object: PDFObject): Buffer {
  if (object instanceof PDFFlateStream && (object as unknown as { encode: boolean }).encode) {
    const data = deflateSync(object.getUnencodedContents(), { level: 1 });
    object.dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
    object.dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
    const dict = Buffer.alloc(object.dict.sizeInBytes());
    object.dict.copyBytesInto(dict, 0);
    return Buffer.concat([dict, Buffer.from('\nstream\n', 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
  }
  const body = Buffer.alloc(object.sizeInBytes());
  object.copyBytesInto(body, 0);
  return body;
}
