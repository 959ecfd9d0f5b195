// Resumable uploads with object storage (BLOB_STORE=s3://…): the parts are in the bucket, so an
// upload begun on server A goes on at server B (each with its own empty DATA_DIR), ends as a file
// whose original either serves, and leaves no parts behind; one cancelled at B leaves none either.
// Needs moto_server (@tus/s3-store lists an upload's parts, which s3rver cannot): skipped without it.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createTestDb } from '../helpers/test-db';
import { motoServerInstalled, startMotoServer, TEST_BUCKET, useStorageInProcess, type TestObjectStorage } from '../helpers/test-object-storage';
import { removeAbandonedUploads, resumableParts } from '../../server/workflow/resumable-parts';
import { createPipelineApp, dropJobSchema, type PipelineApp } from './pipeline-harness';

const TUS = { 'tus-resumable': '1.0.0' };
const PREFIX = 'resumable-test/';
const MB = 1024 * 1024;

let storage: TestObjectStorage;
let db: Database;
const servers: PipelineApp[] = [];
const dataDirs: string[] = [];
let restoreEnv: (() => void) | undefined;
let admin: SignedIn;

/** A real PDF of some 11 MB (an attachment pads it), so its parts span several multipart parts. */
async function largePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(`Resumed through object storage ${randomUUID()}`, { x: 30, y: 800, size: 12, font });
  await doc.attach(randomBytes(11 * MB), 'padding.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save());
}

const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

function fields(name: string) {
  return { kind: 'service_center', name, filename: `${name}.pdf`, answer_sheet_page_length: '0', scanned_at: '2026-11-20T09:00:00.000Z' };
}

async function create(server: PipelineApp, length: number, name: string): Promise<string> {
  const created = await server.app.inject({
    method: 'POST',
    url: '/api/uploads/resumable',
    headers: { ...TUS, ...admin.headers, 'upload-length': String(length), 'upload-metadata': metadata(fields(name)) },
  });
  expect(created.statusCode).toBe(201);
  return created.headers.location as string;
}

function patch(server: PipelineApp, location: string, offset: number, bytes: Buffer) {
  return server.app.inject({
    method: 'PATCH',
    url: location,
    headers: { ...TUS, ...admin.headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    payload: bytes,
  });
}

async function offsetAt(server: PipelineApp, location: string): Promise<number> {
  const answer = await server.app.inject({ method: 'HEAD', url: location, headers: { ...TUS, ...admin.headers } });
  expect(answer.statusCode).toBe(200);
  return Number(answer.headers['upload-offset']);
}

async function partsInBucket(): Promise<string[]> {
  const listed = await storage.client().send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: `${PREFIX}resumable/` }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}

describe.skipIf(!motoServerInstalled())('a resumable upload with object storage', () => {
  beforeAll(async () => {
    storage = await startMotoServer();
    restoreEnv = useStorageInProcess(storage);
    db = await createTestDb();
    for (let i = 0; i < 2; i += 1) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-resumable-s3-'));
      dataDirs.push(dataDir);
      servers.push(
        await createPipelineApp({ db, dataDir, jobs: { work: false }, env: { ...storage.env, BLOB_STORE: `s3://${TEST_BUCKET}/${PREFIX}` } }),
      );
    }
    admin = await signIn(servers[0]!.app, 'admin@resumable-s3.test', { role: 'scanning_admin', isAdmin: true, congregationId: null });
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.close();
    if (db) {
      await dropJobSchema(db);
      await db.close();
    }
    await storage?.stop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    restoreEnv?.();
  });

  it('begun on server A goes on at server B and ends as a file either serves, leaving no parts', async () => {
    const [serverA, serverB] = servers as [PipelineApp, PipelineApp];
    const pdf = await largePdf();
    const location = await create(serverA, pdf.length, 'Across servers');

    // A whole multipart part and a piece of the next reach A…
    const first = 9 * MB;
    expect((await patch(serverA, location, 0, pdf.subarray(0, first))).statusCode).toBe(204);
    // …B, which received none of it, knows where the upload stands, and takes the rest.
    expect(await offsetAt(serverB, location)).toBe(first);
    const last = await patch(serverB, location, first, pdf.subarray(first));
    expect(last.statusCode).toBe(204);
    const fileId = last.headers['upload-result-id'] as string;
    expect(fileId).toBeTruthy();

    const original = await serverA.app.inject({ method: 'GET', url: `/api/file/${fileId}.pdf`, headers: admin.headers });
    expect(original.statusCode).toBe(200);
    expect(Buffer.compare(original.rawPayload, pdf)).toBe(0);
    expect(await offsetAt(serverA, location)).toBe(pdf.length);
    expect(await partsInBucket()).toEqual([]);
    for (const dir of dataDirs) expect(await readdir(dir, { recursive: true })).toEqual([]);
  });

  it('cancelled at server B after parts reached server A leaves no parts', async () => {
    const [serverA, serverB] = servers as [PipelineApp, PipelineApp];
    const pdf = await largePdf();
    const location = await create(serverA, pdf.length, 'Cancelled across servers');
    expect((await patch(serverA, location, 0, pdf.subarray(0, 9 * MB))).statusCode).toBe(204);
    expect((await partsInBucket()).length).toBeGreaterThan(0);
    const cancelled = await serverB.app.inject({ method: 'DELETE', url: location, headers: { ...TUS, ...admin.headers } });
    expect(cancelled.statusCode).toBe(204);
    expect(await partsInBucket()).toEqual([]);
  });

  it('keeps the parts of uploads in progress, and a day on removes them and parts no record names', async () => {
    const [serverA] = servers as [PipelineApp, PipelineApp];
    const arriving = await create(serverA, 1000, 'Still arriving');
    const orphan = await create(serverA, 1000, 'Orphaned');
    for (const location of [arriving, orphan]) expect((await patch(serverA, location, 0, Buffer.alloc(100, 1))).statusCode).toBe(204);
    // A crash between tus making the parts and the record: parts no record names.
    await db.query('DELETE FROM resumable_uploads WHERE id = $1', [orphan.split('/').at(-1)]);
    const parts = resumableParts(serverA.blobStore, serverA.config);
    expect(await removeAbandonedUploads(db, parts)).toBe(0);
    expect((await partsInBucket()).length).toBeGreaterThanOrEqual(4);
    // Every record is a day old by then (this file's earlier uploads too), and the orphan's parts.
    const records = Number((await db.one<{ n: number }>('SELECT count(*) AS n FROM resumable_uploads')).n);
    expect(await removeAbandonedUploads(db, parts, Date.now() + 25 * 60 * 60 * 1000)).toBe(records + 1);
    expect(await partsInBucket()).toEqual([]);
  });
});
