// Resumable uploads (tus 1.0.0 at /api/uploads/resumable) against a listening server: an upload
// sent in parts, cut mid-part (the bytes that arrived are kept), carried over a server restart
// on the same database and data folder, and finished into a file exactly like POST /api/file;
// then the refusals: no session, another origin, the wrong role, too large, unknown and other
// users' uploads, a duplicate at the last byte, cancelling, and abandoned parts removed after a day.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createTestDb } from '../helpers/test-db';
import { createPipelineApp, dropJobSchema, type PipelineApp } from './pipeline-harness';
import { insertCongregation } from './support';

const TUS = { 'tus-resumable': '1.0.0' };
const GIB = 1024 ** 3;

let db: Database;
let dataDir: string;
let server: PipelineApp;
let base: string;
let adminUser: SignedIn;

async function startServer(): Promise<void> {
  server = await createPipelineApp({ db, dataDir, jobs: { work: false } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
}

/** A real PDF of some 100 KB whose bytes no other test makes. */
async function scanPdf(pages = 40): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 40; line++) page.drawText(`${randomUUID()} page ${i + 1} line ${line}`, { x: 30, y: 800 - line * 18, size: 9, font });
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

function serviceCenterFields(name: string): Record<string, string> {
  return { kind: 'service_center', name, filename: `${name}.pdf`, answer_sheet_page_length: '0', scanned_at: '2026-11-20T09:00:00.000Z' };
}

async function create(who: SignedIn | null, length: number, fields: Record<string, string>, extra: Record<string, string> = {}) {
  return fetch(`${base}/api/uploads/resumable`, {
    method: 'POST',
    headers: { ...TUS, ...(who?.headers ?? {}), 'upload-length': String(length), 'upload-metadata': metadata(fields), ...extra },
  });
}

async function head(who: SignedIn | null, location: string) {
  return fetch(`${base}${location}`, { method: 'HEAD', headers: { ...TUS, ...(who?.headers ?? {}) } });
}

async function patch(who: SignedIn | null, location: string, offset: number, bytes: Uint8Array) {
  return fetch(`${base}${location}`, {
    method: 'PATCH',
    headers: { ...TUS, ...(who?.headers ?? {}), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  });
}

/** A PATCH announcing `announced` bytes that sends only `sent` of them, then the connection drops. */
async function patchCut(who: SignedIn, location: string, offset: number, announced: number, sent: Buffer): Promise<void> {
  const { port } = new URL(base);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        [
          `PATCH ${location} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          `Cookie: ${who.headers.cookie}`,
          `Origin: ${who.headers.origin}`,
          'Tus-Resumable: 1.0.0',
          `Upload-Offset: ${offset}`,
          'Content-Type: application/offset+octet-stream',
          `Content-Length: ${announced}`,
          '',
          '',
        ].join('\r\n'),
      );
      socket.write(sent, () => setTimeout(() => socket.destroy(), 300));
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}

async function offsetOf(who: SignedIn, location: string): Promise<number> {
  const answer = await head(who, location);
  expect(answer.status).toBe(200);
  return Number(answer.headers.get('upload-offset'));
}

beforeAll(async () => {
  db = await createTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-resumable-'));
  await startServer();
  adminUser = await signIn(server.app, 'admin@resumable.test', { role: 'scanning_admin', isAdmin: true, congregationId: null });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await dropJobSchema(db);
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a resumable upload', () => {
  it('is sent in parts, survives a cut mid-part and a server restart, and ends as a file like POST /api/file', async () => {
    const pdf = await scanPdf();
    const created = await create(adminUser, pdf.length, serviceCenterFields('Resumed batch'));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/uploads\/resumable\/[0-9a-f]{32}$/);

    // First part, whole.
    const first = Math.floor(pdf.length / 4);
    const part = await patch(adminUser, location, 0, pdf.subarray(0, first));
    expect(part.status).toBe(204);
    expect(Number(part.headers.get('upload-offset'))).toBe(first);

    // Second part cut in the middle: what arrived before the cut is kept.
    await patchCut(adminUser, location, first, pdf.length - first, pdf.subarray(first, first + 20_000));
    const afterCut = await offsetOf(adminUser, location);
    expect(afterCut).toBeGreaterThan(first);
    expect(afterCut).toBeLessThanOrEqual(first + 20_000);

    // The server restarts (a new process on the same database and data folder).
    await server.close();
    await startServer();
    const answer = await head(adminUser, location);
    expect(answer.headers.get('upload-offset')).toBe(String(afterCut));
    expect(answer.headers.get('upload-length')).toBe(String(pdf.length));
    expect(answer.headers.get('cache-control')).toBe('no-store');

    // A wrong offset is refused, the right one finishes.
    expect((await patch(adminUser, location, 0, pdf.subarray(0, 10))).status).toBe(409);
    const last = await patch(adminUser, location, afterCut, pdf.subarray(afterCut));
    expect(last.status).toBe(204);
    expect(Number(last.headers.get('upload-offset'))).toBe(pdf.length);
    const fileId = last.headers.get('upload-result-id')!;
    expect(fileId).toMatch(/^[0-9a-f-]{36}$/);

    const file = await db.one<{ name: string; sha256: string; answer_sheet_page_length: number; page_count: number; process_status: string }>(
      'SELECT name, sha256, answer_sheet_page_length, page_count, process_status FROM files WHERE id = $1',
      [fileId],
    );
    expect(file).toEqual({
      name: 'Resumed batch',
      sha256: createHash('sha256').update(pdf).digest('hex'),
      answer_sheet_page_length: 0,
      page_count: 40,
      process_status: 'pending',
    });
    // The same processing as a multipart upload: its progress is started for the job.
    expect(await db.maybeOne(`SELECT 1 FROM job_progress WHERE group_name = 'process_service_center_upload' AND run_id = $1`, [fileId])).not.toBeNull();

    // The outcome stays readable, HEAD names the file, and the parts are gone.
    const outcome = await fetch(`${base}${location}`, { headers: adminUser.headers });
    expect(await outcome.json()).toMatchObject({ state: 'accepted', result_id: fileId, offset: pdf.length, length: pdf.length, kind: 'service_center', name: 'Resumed batch' });
    expect((await head(adminUser, location)).headers.get('upload-result-id')).toBe(fileId);
    const parts = path.join(dataDir, 'blobs', 'tmp', 'resumable');
    expect((await readdir(parts)).filter((name) => location.endsWith(name.replace('.json', '')))).toEqual([]);

    // The same bytes again: refused at the last byte as POST /api/file refuses them.
    const again = await create(adminUser, pdf.length, serviceCenterFields('Same bytes'));
    const againAt = again.headers.get('location')!;
    const duplicate = await patch(adminUser, againAt, 0, pdf);
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ detail: { error_type: 'DUPLICATE_FILE', message: 'This file has already been uploaded.' } });
    const refused = (await (await fetch(`${base}${againAt}`, { headers: adminUser.headers })).json()) as Record<string, unknown>;
    expect(refused).toMatchObject({ state: 'refused', result_id: null, refusal: { status: 409, detail: { error_type: 'DUPLICATE_FILE' } } });
    expect(server.app.contractViolations).toEqual([]);
  }, 120_000);

  it('of graded scans ends as a graded upload of the coordinator\'s congregation', async () => {
    const congregation = await insertCongregation(db, `RS ${Math.floor(Math.random() * 9000) + 1000}`);
    const coordinator = await signIn(server.app, 'coord@resumable.test', { role: 'study_helper_coordinator', congregationId: congregation });
    const pdf = await scanPdf(3);
    const created = await create(coordinator, pdf.length, { kind: 'graded', name: 'Graded packet', filename: 'graded.pdf' });
    expect(created.status).toBe(201);
    const last = await patch(coordinator, created.headers.get('location')!, 0, pdf);
    expect(last.status).toBe(204);
    const uploadId = last.headers.get('upload-result-id');
    const upload = await db.one<{ name: string; congregation_id: string; is_intro: boolean }>(
      'SELECT name, congregation_id, is_intro FROM graded_uploads WHERE id = $1',
      [uploadId],
    );
    expect(upload).toEqual({ name: 'Graded packet', congregation_id: congregation, is_intro: false });
  }, 60_000);

  it('of one photo of a page ends as a photo upload; a photo too small to read is refused', async () => {
    const congregation = await insertCongregation(db, `RP ${Math.floor(Math.random() * 9000) + 1000}`);
    const coordinator = await signIn(server.app, 'photo@resumable.test', { role: 'study_helper_coordinator', congregationId: congregation });
    const send = async (photo: Buffer, filename: string) => {
      const created = await create(coordinator, photo.length, { kind: 'graded', name: 'Graded by phone', filename });
      expect(created.status).toBe(201);
      return patch(coordinator, created.headers.get('location')!, 0, photo);
    };
    const photo = await sharp({ create: { width: 1500, height: 2000, channels: 3, background: '#d8cfc0' } }).jpeg({ quality: 85 }).toBuffer();
    const last = await send(photo, 'IMG_0001.jpg');
    expect(last.status).toBe(204);
    const photos = await db.query<{ media_type: string }>('SELECT media_type FROM upload_photos WHERE upload_id = $1', [last.headers.get('upload-result-id')]);
    expect(photos).toEqual([{ media_type: 'image/jpeg' }]);

    const tiny = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const refused = await send(tiny, 'tiny.png');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ detail: { error_type: 'VALIDATION_ERROR', message: expect.stringMatching(/^Photo 1 \(tiny\.png\): /) } });
  }, 60_000);

  it('refuses what the multipart calls refuse, before a byte is sent', async () => {
    const fields = serviceCenterFields('Refusals');
    expect((await create(null, 1000, fields)).status).toBe(401);
    // Same-origin rule: a session cookie from another site's page.
    expect((await create(adminUser, 1000, fields, { origin: 'https://evil.example' })).status).toBe(403);
    // 1.5 GB is the limit; 1.5 GiB + 1 and anything over 1,500,000,000 bytes are refused.
    for (const length of [1.5 * GIB + 1, 1_500_000_001]) {
      const tooLarge = await create(adminUser, length, fields);
      expect(tooLarge.status).toBe(413);
      expect(await tooLarge.json()).toEqual({ detail: { error_type: 'FILE_TOO_LARGE', message: 'File too large' } });
    }
    expect((await create(adminUser, 0, fields)).status).toBe(400);
    const noName = await create(adminUser, 1000, { ...fields, name: '' });
    expect(noName.status).toBe(400);
    expect(await noName.json()).toEqual({ detail: { error_type: 'VALIDATION_ERROR', message: 'name is required' } });
    expect((await create(adminUser, 1000, { ...fields, answer_sheet_page_length: '7' })).status).toBe(400);
    expect((await create(adminUser, 1000, { ...fields, kind: 'photo' })).status).toBe(400);
    expect((await create(adminUser, 1000, fields, { 'tus-resumable': '0.2.2' })).status).toBe(412);
    const noHeader = await fetch(`${base}/api/uploads/resumable`, { method: 'POST', headers: { ...adminUser.headers, ...TUS, 'upload-metadata': metadata(fields) } });
    expect(noHeader.status).toBe(400);

    // Roles: service-center uploads are the admins', graded ones need a congregation.
    const congregation = await insertCongregation(db, `RF ${Math.floor(Math.random() * 9000) + 1000}`);
    const coordinator = await signIn(server.app, 'coord-refusals@resumable.test', { role: 'study_helper_coordinator', congregationId: congregation });
    const standard = await signIn(server.app, 'user@resumable.test', { role: 'standard_user', congregationId: null });
    expect((await create(coordinator, 1000, fields)).status).toBe(403);
    expect((await create(standard, 1000, { kind: 'graded', name: 'x' })).status).toBe(403);
    expect((await create(adminUser, 1000, { kind: 'graded', name: 'No congregation' })).status).toBe(403);
    expect(await db.maybeOne('SELECT 1 FROM resumable_uploads WHERE fields->>\'name\' = \'Refusals\'')).toBeNull();
  }, 60_000);

  it('is unknown to everyone but its owner, and cancelling it keeps nothing', async () => {
    const created = await create(adminUser, 5000, serviceCenterFields('Mine'));
    const location = created.headers.get('location')!;
    expect((await patch(adminUser, location, 0, Buffer.alloc(1000, 1))).status).toBe(204);
    const other = await signIn(server.app, 'other-admin@resumable.test', { role: 'scanning_admin', isAdmin: true, congregationId: null });
    expect((await head(other, location)).status).toBe(404);
    expect((await patch(other, location, 1000, Buffer.alloc(10))).status).toBe(404);
    expect((await fetch(`${base}${location}`, { headers: other.headers })).status).toBe(404);
    expect((await fetch(`${base}${location}`, { method: 'DELETE', headers: { ...TUS, ...other.headers } })).status).toBe(404);
    expect((await head(null, location)).status).toBe(401);
    expect((await head(adminUser, '/api/uploads/resumable/0123456789abcdef0123456789abcdef')).status).toBe(404);
    expect((await head(adminUser, '/api/uploads/resumable/not-an-id')).status).toBe(400);
    // The owner's upload is untouched by all that.
    expect(await offsetOf(adminUser, location)).toBe(1000);

    const id = location.split('/').at(-1)!;
    const parts = path.join(dataDir, 'blobs', 'tmp', 'resumable', id);
    expect(existsSync(parts)).toBe(true);
    const cancelled = await fetch(`${base}${location}`, { method: 'DELETE', headers: { ...TUS, ...adminUser.headers } });
    expect(cancelled.status).toBe(204);
    expect(existsSync(parts)).toBe(false);
    expect(existsSync(`${parts}.json`)).toBe(false);
    expect((await head(adminUser, location)).status).toBe(404);
  }, 60_000);

  it('left for a day has its parts removed by the periodic job; a fresh one stays', async () => {
    const stale = (await create(adminUser, 5000, serviceCenterFields('Abandoned'))).headers.get('location')!;
    const fresh = (await create(adminUser, 5000, serviceCenterFields('Paused'))).headers.get('location')!;
    await patch(adminUser, stale, 0, Buffer.alloc(2000, 2));
    await patch(adminUser, fresh, 0, Buffer.alloc(2000, 3));
    const staleId = stale.split('/').at(-1)!;
    await db.query(`UPDATE resumable_uploads SET touched_at = now() - interval '25 hours' WHERE id = $1`, [staleId]);

    await server.app.jobs.runNow('remove_abandoned_uploads', {});
    const folder = path.join(dataDir, 'blobs', 'tmp', 'resumable');
    expect(existsSync(path.join(folder, staleId))).toBe(false);
    expect(await db.maybeOne('SELECT 1 FROM resumable_uploads WHERE id = $1', [staleId])).toBeNull();
    expect((await head(adminUser, stale)).status).toBe(404);
    expect(await offsetOf(adminUser, fresh)).toBe(2000);
  }, 60_000);
});
