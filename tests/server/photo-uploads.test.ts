// Photos of pages as uploads (issue 35), through the whole pipeline on real parts: pages the
// product printed (a congregation's packet, answer-sheet masters) photographed on a table
// (tests/fixtures/phone-photos: perspective, rotation, shadow, grain, blur, 12 MP JPEG q85),
// uploaded as graded pages, as an intro file (with a real HEIC photo) and as a service center's
// file; a photo with no sheet and a blurred one are kept, flagged, on no sheet; bad uploads are
// refused with 400 VALIDATION_ERROR and keep nothing. No page may land on a page it is not.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newCodeId } from '../../server/db/printed-codes';
import { makeAnswerSheetMaster } from '../../server/pdf/answer-sheet-master';
import {
  photographPage,
  photographTable,
  randomShot,
  type PhoneShot,
} from '../fixtures/phone-photos';
import { HEIC_PHOTO, HEIC_PHOTO_CODE } from '../fixtures/photos/heic-photo';
import { createPrng } from '../fixtures/prng';
import { renderPdfPage } from '../fixtures/render-pdf';
import { writeAnswers } from '../fixtures/scan-effects';
import type { SignedIn } from '../helpers/sign-in';
import { signIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import {
  coordinator,
  insertCongregation,
  insertFile,
  insertStudent,
  insertStudyHelper,
} from './support';
import { api, uploadOutcomes, waitFor, waitForUpload } from './workflow-world';

const PUBLIC_URL = 'http://localhost:3000';
/** Pages are printed, then photographed, at this resolution. */
const PRINT_DPI = 200;

let h: PipelineApp;
let admin: SignedIn;
let congregation: string;
let coordinatorA: SignedIn;
/** Lesson 1 (one page, a random t code) and lesson 2 (one page, the HEIC fixture's t code). */
let lessons: { id: string; templateId: string; code: string }[];
/** The sent file's two sheets, in packet order: their page ids. */
let packetPageIds: string[];
let packetPdf: Uint8Array;

interface Photo {
  filename: string;
  content: Uint8Array;
  contentType: string;
}

function multipartPhotos(
  fields: Record<string, string>,
  photos: Photo[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----photos${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  for (const photo of photos) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${photo.filename}"\r\nContent-Type: ${photo.contentType}\r\n\r\n`,
      ),
      Buffer.from(photo.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function post(who: SignedIn, url: string, fields: Record<string, string>, photos: Photo[]) {
  const body = multipartPhotos(fields, photos);
  const response = await h.app.inject({
    method: 'POST',
    url,
    headers: { ...who.headers, ...body.headers },
    payload: body.payload,
  });
  return {
    status: response.statusCode,
    body: response.json() as { id?: string; detail?: { error_type: string; message: string } },
  };
}

/** A page of `pdf` printed, written on, and photographed as `shot` says (or as drawn by the seed). */
async function photoOf(
  pdf: Uint8Array,
  pageIndex: number,
  seed: string,
  shot: Partial<PhoneShot> = {},
): Promise<Photo> {
  const prng = createPrng(seed);
  const printed = renderPdfPage(pdf, pageIndex, PRINT_DPI);
  writeAnswers(printed, prng, PRINT_DPI, 4);
  const content = (await photographPage(printed, { ...randomShot(prng), ...shot }, prng)).jpeg;
  return { filename: `${seed}.jpg`, content, contentType: 'image/jpeg' };
}

async function tablePhoto(seed: string): Promise<Photo> {
  return {
    filename: `${seed}.jpg`,
    content: await photographTable(createPrng(seed)),
    contentType: 'image/jpeg',
  };
}

async function masterPdf(lessonIndex: number): Promise<Uint8Array> {
  const lesson = lessons[lessonIndex]!;
  return makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: `Lesson ${lessonIndex + 1}`,
    lessonNumber: lessonIndex + 1,
    pages: [{ page_number: 1, code: { prefix: 't', id: lesson.code } }],
    publicUrl: PUBLIC_URL,
  });
}

function blobCount(): number {
  const root = path.join(h.config.dataDir, 'blobs');
  const walk = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (n, entry) =>
        n +
        (entry.isDirectory()
          ? walk(path.join(dir, entry.name))
          : entry.name.endsWith('.tmp')
            ? 0
            : 1),
      0,
    );
  return walk(root);
}

beforeAll(async () => {
  h = await createPipelineApp();
  admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  congregation = await insertCongregation(h.db, 'GH 0035');
  coordinatorA = await coordinator(h.app, congregation);
  const course = await h.db.one<{ id: string }>(
    `INSERT INTO courses (name, version) VALUES ('The Gospel of John', 'photos') RETURNING id`,
  );
  lessons = [];
  for (const [index, code] of [newCodeId(), HEIC_PHOTO_CODE].entries()) {
    const lesson = await h.db.one<{ id: string }>(
      'INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id',
      [course.id, index + 1, `Lesson ${index + 1}`],
    );
    const template = await h.db.one<{ id: string }>(
      `INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, 1, 'page 1', $2) RETURNING id`,
      [lesson.id, code],
    );
    lessons.push({ id: lesson.id, templateId: template.id, code });
  }

  // A processed file with two sheets of the congregation's students, sent: its packet is what
  // the helpers grade, then photograph.
  const fileId = await insertFile(h.db, 'Photo batch');
  const printed = renderPdfPage(await masterPdf(0), 0, 150);
  const jpeg = await sharp(Buffer.from(printed.data), {
    raw: { width: printed.width, height: printed.height, channels: 1 },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  const image = await h.blobStore.put(jpeg);
  packetPageIds = [];
  for (const sequence of [0, 1]) {
    const student = await insertStudent(h.db, {
      congregationId: congregation,
      attributes: { name: `Student ${sequence + 1}` },
    });
    const sheet = await h.db.one<{ id: string }>(
      `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, assigned_group) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [fileId, sequence, student.id, lessons[0]!.id, congregation],
    );
    const page = await h.db.one<{ id: string }>(
      `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, code_prefix, code_id, image_blob_key)
       VALUES ($1, $2, $3, $4, 't', $5, $6) RETURNING id`,
      [fileId, sequence + 1, sheet.id, lessons[0]!.templateId, lessons[0]!.code, image.key],
    );
    packetPageIds.push(page.id);
  }
  expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(202);
  await waitFor(
    'the file to be sent',
    async () =>
      (
        await h.db.one<{ sent_at: Date | null }>('SELECT sent_at FROM files WHERE id = $1', [
          fileId,
        ])
      ).sent_at,
  );
  const list = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`))
    .json as unknown as { id: string; packet_id: string }[];
  const download = await api(
    h.app,
    coordinatorA,
    'GET',
    `/api/study-helpers/distributed-files/${list[0]!.packet_id}.pdf`,
  );
  expect(download.status).toBe(200);
  packetPdf = new Uint8Array(download.raw.rawPayload);
}, 180_000);
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

describe('graded pages sent as photos', () => {
  it('matches each photographed packet page to its own page and keeps a photo without a sheet, on none', async () => {
    // The packet's pages in reverse order, the second taken with the phone sideways, then a photo of the table.
    const photos = [
      await photoOf(packetPdf, 1, 'graded-1'),
      await photoOf(packetPdf, 0, 'graded-2', { sideways: true }),
      await tablePhoto('graded-table'),
    ];
    const uploaded = await post(
      coordinatorA,
      '/api/study-helpers/file',
      { name: 'Graded by phone' },
      photos,
    );
    expect(uploaded.status).toBe(201);
    expect(await waitForUpload(h.db, uploaded.body.id!)).toBe('success');

    const outcomes = await uploadOutcomes(h.db, uploaded.body.id!);
    // Expected from the photos as taken: page 2's sheet, page 1's sheet, no sheet at all.
    expect(outcomes.map((row) => [row.page_number, row.outcome, row.page_id])).toEqual([
      [1, 'matched', packetPageIds[1]],
      [2, 'matched', packetPageIds[0]],
      [3, 'no_sheet', null],
    ]);
    const feedback = await h.db.query<{ page_id: string }>(
      'SELECT page_id FROM feedback WHERE upload_id = $1 ORDER BY page_id',
      [uploaded.body.id],
    );
    expect(feedback.map((row) => row.page_id).sort()).toEqual([...packetPageIds].sort());

    // The report says why the third photo was not matched, with its thumbnail.
    const report = (await api(h.app, coordinatorA, 'GET', `/api/uploads/${uploaded.body.id}`))
      .json as unknown as {
      pages: { page_number: number; result: string; reason: string | null; has_image: boolean }[];
    };
    expect(report.pages[2]).toMatchObject({
      page_number: 3,
      result: 'not_matched',
      reason: 'no_sheet',
      has_image: true,
    });
    // Every page keeps its photo as taken.
    const kept = await h.db.query<{ photo_blob_key: string | null }>(
      'SELECT photo_blob_key FROM graded_upload_pages WHERE upload_id = $1',
      [uploaded.body.id],
    );
    expect(kept.every((row) => row.photo_blob_key !== null)).toBe(true);
  }, 180_000);
});

describe('an intro file sent as photos', () => {
  it('makes one new student per photographed sheet, reads a HEIC photo, and keeps a blurred photo on no sheet', async () => {
    const helper = await insertStudyHelper(h.db, congregation, 'Sister Ama');
    const photos = [
      await photoOf(await masterPdf(0), 0, 'intro-1'),
      {
        filename: 'IMG_0042.HEIC',
        content: new Uint8Array(readFileSync(HEIC_PHOTO)),
        contentType: 'image/heic',
      },
      await photoOf(await masterPdf(0), 0, 'intro-3', { blur: 14 }),
      await photoOf(await masterPdf(0), 0, 'intro-4', { upsideDown: true }),
    ];
    const uploaded = await post(
      coordinatorA,
      '/api/study-helpers/file',
      { name: 'Recruits by phone', study_helper: helper },
      photos,
    );
    expect(uploaded.status).toBe(201);
    expect(await waitForUpload(h.db, uploaded.body.id!)).toBe('success');

    const outcomes = await uploadOutcomes(h.db, uploaded.body.id!);
    expect(outcomes.map((row) => row.outcome)).toEqual(['intro', 'intro', 'too_blurred', 'intro']);
    const upload = await h.db.one<{ file_id: string }>(
      'SELECT file_id FROM graded_uploads WHERE id = $1',
      [uploaded.body.id],
    );
    // Photos 1, 2 (HEIC, lesson 2's master) and 4 are three sheets of three new students; photo 3 is on none.
    const pages = await h.db.query<{
      page_number: number;
      lesson_id: string | null;
      student_id: string | null;
      flag: string | null;
      has_photo: boolean;
    }>(
      `SELECT p.page_number, a.lesson_id, a.student_id, p.flag, p.photo_blob_key IS NOT NULL AS has_photo
       FROM pages p LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE p.file_id = $1 ORDER BY p.page_number`,
      [upload.file_id],
    );
    expect(pages.map((p) => [p.page_number, p.lesson_id, p.flag, p.has_photo])).toEqual([
      [1, lessons[0]!.id, null, true],
      [2, lessons[1]!.id, null, true],
      [3, null, 'too_blurred', true],
      [4, lessons[0]!.id, null, true],
    ]);
    const students = new Set(pages.flatMap((p) => (p.student_id === null ? [] : [p.student_id])));
    expect(students.size).toBe(3);
    expect(pages[2]!.student_id).toBeNull();
  }, 180_000);
});

describe('a service center file sent as photos', () => {
  it('reads each photo as a page, flags the one with no sheet, shows the photo as taken, and refuses the same photos again', async () => {
    const photos = [
      await photoOf(await masterPdf(0), 0, 'center-1'),
      await tablePhoto('center-table'),
      await photoOf(await masterPdf(0), 0, 'center-3'),
    ];
    const uploaded = await post(
      admin,
      '/api/file',
      { name: 'Phone batch', answer_sheet_page_length: '1' },
      photos,
    );
    expect(uploaded.status).toBe(201);
    const fileId = uploaded.body.id!;
    await waitFor('the file to be read', async () => {
      const row = await h.db.one<{ process_status: string }>(
        'SELECT process_status FROM files WHERE id = $1',
        [fileId],
      );
      return row.process_status === 'pending' ? null : row.process_status;
    });
    const pages = await h.db.query<{
      id: string;
      page_number: number;
      answer_sheet_id: string | null;
      flag: string | null;
      template_id: string | null;
    }>(
      'SELECT id, page_number, answer_sheet_id, flag, template_id FROM pages WHERE file_id = $1 ORDER BY page_number',
      [fileId],
    );
    expect(
      pages.map((p) => [p.page_number, p.template_id, p.flag, p.answer_sheet_id === null]),
    ).toEqual([
      [1, lessons[0]!.templateId, null, false],
      [2, null, 'no_sheet', true],
      [3, lessons[0]!.templateId, null, false],
    ]);
    const stats = (await api(h.app, admin, 'GET', `/api/file/${fileId}/stats`)).json as unknown as {
      reasons: Record<string, number>;
    };
    expect(stats.reasons).toMatchObject({ no_sheet: 1, too_blurred: 0 });
    const report = (await api(h.app, admin, 'GET', `/api/uploads/${fileId}`)).json as unknown as {
      pages: { reason: string | null; detail: string | null }[];
    };
    expect(report.pages[1]).toMatchObject({
      reason: 'no_sheet',
      detail: 'No sheet found in the photo: the photo is kept beside its page, on no answer sheet.',
    });

    // The photo as taken, beside the straightened page.
    const page = (await api(h.app, admin, 'GET', `/api/pages/${pages[1]!.id}`)).json as unknown as {
      has_photo: boolean;
    };
    expect(page.has_photo).toBe(true);
    const photo = await api(h.app, admin, 'GET', `/api/pages/${pages[1]!.id}/photo`);
    expect(photo.status).toBe(200);
    expect(photo.raw.headers['content-type']).toBe('image/jpeg');
    const shown = await sharp(photo.raw.rawPayload).metadata();
    expect(Math.max(shown.width!, shown.height!)).toBe(2000);

    // The file downloads as a PDF of its photos, one page each.
    const pdf = await api(h.app, admin, 'GET', `/api/file/${fileId}.pdf`);
    expect(pdf.status).toBe(200);
    const doc = mupdf.Document.openDocument(new Uint8Array(pdf.raw.rawPayload), 'application/pdf');
    expect(doc.countPages()).toBe(3);
    doc.destroy();

    // The same photos in the same order are the same file.
    const again = await post(
      admin,
      '/api/file',
      { name: 'Phone batch again', answer_sheet_page_length: '1' },
      photos,
    );
    expect(again.status).toBe(409);
    expect(again.body.detail?.error_type).toBe('DUPLICATE_FILE');
  }, 180_000);
});

describe('uploads that are refused', () => {
  const small = async (width: number, height: number) =>
    new Uint8Array(
      await sharp({
        create: { width, height, channels: 3, background: { r: 240, g: 240, b: 235 } },
      })
        .jpeg()
        .toBuffer(),
    );
  const pdfBytes = () =>
    makeAnswerSheetMaster({
      courseName: 'C',
      lessonName: 'L',
      lessonNumber: 1,
      pages: [{ page_number: 1, code: { prefix: 't', id: newCodeId() } }],
      publicUrl: PUBLIC_URL,
    });

  it.each([
    [
      'a PDF among photos',
      async () => [
        { filename: 'a.jpg', content: await small(900, 1200), contentType: 'image/jpeg' },
        { filename: 'scan.pdf', content: await pdfBytes(), contentType: 'application/pdf' },
      ],
      'A PDF is uploaded on its own: file 2 (scan.pdf) is a PDF among 2 files.',
    ],
    [
      'a file that is no photo',
      async () => [
        { filename: 'a.jpg', content: await small(900, 1200), contentType: 'image/jpeg' },
        { filename: 'notes.txt', content: Buffer.from('not a photo'), contentType: 'image/jpeg' },
      ],
      'File 2 (notes.txt) is neither a PDF nor a photo (JPEG, PNG or HEIC/HEIF).',
    ],
    [
      'more than 50 photos',
      async () =>
        Array.from({ length: 51 }, (_, i) => ({
          filename: `p${i}.jpg`,
          content: Buffer.from([0xff, 0xd8, 0xff, i]),
          contentType: 'image/jpeg',
        })),
      '51 files: an upload takes at most 50 photos of pages (or one PDF).',
    ],
    [
      'a photo too small to read',
      async () => [
        { filename: 'a.jpg', content: await small(900, 1200), contentType: 'image/jpeg' },
        { filename: 'tiny.jpg', content: await small(450, 800), contentType: 'image/jpeg' },
      ],
      'Photo 2 (tiny.jpg): too small to read: 450 x 800 pixels (at least 600 on its shorter side).',
    ],
    [
      'a photo that cannot be read',
      async () => [
        {
          filename: 'broken.png',
          content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
          contentType: 'image/png',
        },
      ],
      null,
    ],
  ] as const)(
    'refuses %s with 400 VALIDATION_ERROR, keeping nothing',
    async (_, files, message) => {
      const blobsBefore = blobCount();
      const filesBefore = (await h.db.one<{ n: number }>('SELECT count(*)::int AS n FROM files')).n;
      for (const [who, url, fields] of [
        [admin, '/api/file', { name: 'Refused', answer_sheet_page_length: '0' }],
        [coordinatorA, '/api/study-helpers/file', { name: 'Refused' }],
      ] as const) {
        const refused = await post(who, url, fields, await files());
        expect(refused.status).toBe(400);
        expect(refused.body.detail?.error_type).toBe('VALIDATION_ERROR');
        if (message !== null) expect(refused.body.detail?.message).toBe(message);
        else
          expect(refused.body.detail?.message).toMatch(
            /^Photo 1 \(broken\.png\): it cannot be read/,
          );
      }
      expect((await h.db.one<{ n: number }>('SELECT count(*)::int AS n FROM files')).n).toBe(
        filesBefore,
      );
      expect(blobCount()).toBe(blobsBefore);
    },
    60_000,
  );
});
