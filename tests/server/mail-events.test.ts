// People told by e-mail when the real events happen, end to end on a generated scan: the file is
// read (its uploader hears the counts, every admin that it waits in Review), it is sent (each
// address of each congregation hears once that its packet is ready, and again when the file was
// taken back and sent again), a packet waits a week (the job runner's sweep reminds once, however
// many workers look), graded scans come back (their uploader gets the report unless turned off)
// and the return file is made (every admin hears it). Mail goes to a real SMTP server (the sink).
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { makeScan } from '../fixtures/make-scans';
import { MailSink, type Received } from '../helpers/mail-sink';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { TEST_PUBLIC_URL } from '../helpers/test-app';
import { createTestDb } from '../helpers/test-db';
import { createPipelineApp, dropJobSchema, type PipelineApp } from './pipeline-harness';
import { seedScanWorld, upload, waitForProcessing } from './pipeline-world';
import { coordinator, insertCongregation } from './support';
import { api, pdfPageCount, reviewAndAssign, scanGradedPackets, uploadGraded, waitFor, waitForUpload } from './workflow-world';

const FILE_NAME = 'Lagos batch 7';
const sink = new MailSink();
let db: Database;
let dataDir: string;
let h: PipelineApp;
let admin: SignedIn;
let secondAdmin: SignedIn;
let congregationA: string;
let congregationB: string;
let coordinatorA: SignedIn;
let coordinatorB: SignedIn;
let fileId: string;

/** The server on the one database and data folder; called again, it is the server restarted. */
async function startServer(): Promise<void> {
  h = await createPipelineApp({ db, dataDir, env: { SMTP_URL: sink.url, MAIL_FROM: 'Portal <portal@test.local>' } });
}

async function restartServer(): Promise<void> {
  await h.close();
  await startServer();
}

/** Waits until the sink holds `count` messages in all, then a little longer to catch any extra one. */
async function expectMailCount(count: number): Promise<void> {
  await waitFor(`${count} messages`, async () => sink.received.length >= count, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(sink.received.map((r) => `${r.to}: ${r.mail.subject}`)).toHaveLength(count);
}

const subjectsTo = (address: string) => sink.to(address).map((r) => r.mail.subject);
const only = (address: string, subject: string): Received => {
  const found = sink.to(address).filter((r) => r.mail.subject === subject);
  expect(found).toHaveLength(1);
  return found[0]!;
};

const ADDRESSES_A = ['helpers.a@example.org', 'secretary.a@example.org'];
const ADDRESS_B = 'helpers.b@example.org';

beforeAll(async () => {
  await sink.start();
  const made = await makeScan({ pages: 12, seed: 7 });
  db = await createTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-mail-events-'));
  await startServer();
  admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  secondAdmin = await signIn(h.app, 'second-admin@test.local', { role: 'scanning_admin', isAdmin: true });
  congregationA = await insertCongregation(db, 'NG 0001');
  congregationB = await insertCongregation(db, 'NG 0002');
  coordinatorA = await coordinator(h.app, congregationA, 'coordinator.a@example.org');
  coordinatorB = await coordinator(h.app, congregationB, 'coordinator.b@example.org');
  // Each coordinator keeps its congregation's addresses (one typed in capitals).
  for (const email of ['Helpers.A@Example.org', 'secretary.a@example.org']) {
    expect((await api(h.app, coordinatorA, 'POST', `/api/congregations/${congregationA}/emails`, { email })).status).toBe(201);
  }
  expect((await api(h.app, coordinatorB, 'POST', `/api/congregations/${congregationB}/emails`, { email: ADDRESS_B })).status).toBe(201);
  await seedScanWorld(db, made);
  const uploaded = await upload(h.app, admin, readFileSync(made.path), { name: FILE_NAME });
  expect(uploaded.status).toBe(201);
  fileId = uploaded.body.id!;
  expect(await waitForProcessing(db, fileId)).toBe('success');
}, 180_000);
afterAll(async () => {
  await h?.app.close();
  if (db) {
    await dropJobSchema(db);
    await db.close();
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await sink.stop();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

const congregationsOfFile = async () =>
  (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; status: string; sheets: number; packet_id: string }[];

async function sendFile(): Promise<void> {
  expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(202);
  await waitFor('the file sent', async () => ((await api(h.app, admin, 'GET', `/api/file/${fileId}`)).json as unknown as { sent_at: string | null }).sent_at);
}

describe('e-mail when work waits, from the real events', () => {
  it('a file read: its uploader hears its counts, every admin that it waits in Review with its flags', async () => {
    expect(((await api(h.app, admin, 'GET', `/api/file/${fileId}/steps`)).json as unknown as { step: string }).step).toBe('review');
    await expectMailCount(3);
    const flagged = await db.one<{ pages: number }>(
      `SELECT count(*)::int AS pages FROM pages WHERE file_id = $1 AND answer_sheet_id IS NOT NULL AND NOT ignored AND flag IS NOT NULL`,
      [fileId],
    );
    expect(flagged.pages).toBeGreaterThan(0);
    expect(subjectsTo('admin@test.local').sort()).toEqual([`A file waits in Review: ${FILE_NAME}`, `File read: ${FILE_NAME}`]);
    expect(subjectsTo('second-admin@test.local')).toEqual([`A file waits in Review: ${FILE_NAME}`]);
    const review = only('second-admin@test.local', `A file waits in Review: ${FILE_NAME}`).mail;
    expect(review.text).toContain(`${FILE_NAME} waits in Review: ${flagged.pages} flagged page`);
    expect(review.text).toContain(`${TEST_PUBLIC_URL}/file/${fileId}`);
    expect(review.html).toContain(`href="${TEST_PUBLIC_URL}/file/${fileId}"`);
    expect(only('admin@test.local', `File read: ${FILE_NAME}`).mail.text).toContain(`Flagged pages: ${flagged.pages}.`);
    // Nobody else: the coordinators and the congregations' addresses have nothing to do yet.
    expect(sink.received.every((r) => r.to.endsWith('@test.local'))).toBe(true);
  });

  it('sent: each address of each congregation hears once that its packet is ready, with its sheets and the link', async () => {
    await reviewAndAssign(h.app, db, admin, fileId, congregationA, { congregationId: congregationB, pick: (index) => index % 3 === 1 });
    sink.clear();
    await sendFile();
    await expectMailCount(3);
    const sheets = Object.fromEntries((await congregationsOfFile()).map((row) => [row.id, row.sheets]));
    for (const address of ADDRESSES_A) {
      const mail = only(address, `A packet is ready to print: ${FILE_NAME}`).mail;
      expect(mail.text).toContain(`A packet for NG 0001 is ready to print: ${FILE_NAME}, ${sheets[congregationA]} answer sheet`);
      expect(mail.text).toContain(`${TEST_PUBLIC_URL}/files?mode=print`);
      expect(mail.html).toContain(`href="${TEST_PUBLIC_URL}/files?mode=print"`);
    }
    expect(only(ADDRESS_B, `A packet is ready to print: ${FILE_NAME}`).mail.text).toContain(`A packet for NG 0002 is ready to print: ${FILE_NAME}, ${sheets[congregationB]} answer sheet`);
  });

  it('taken back and sent again: each address hears again, once', async () => {
    expect((await api(h.app, admin, 'DELETE', `/api/file/${fileId}/send`)).status).toBe(200);
    await sendFile();
    await expectMailCount(6);
    for (const address of [...ADDRESSES_A, ADDRESS_B]) expect(subjectsTo(address)).toEqual([`A packet is ready to print: ${FILE_NAME}`, `A packet is ready to print: ${FILE_NAME}`]);
  });

  it("a packet unprinted for a week: the job runner's sweep reminds each address once, however many workers look", async () => {
    sink.clear();
    await db.query(`UPDATE files SET sent_at = sent_at - interval '8 days' WHERE id = $1`, [fileId]);
    // A worker starting looks at once.
    await restartServer();
    await expectMailCount(3);
    for (const address of [...ADDRESSES_A, ADDRESS_B]) {
      const mail = only(address, `Reminder: a packet waits: ${FILE_NAME}`).mail;
      expect(mail.text).toContain(`The packet of ${FILE_NAME}, sent 8 days ago, is not printed yet.`);
      expect(mail.text).toContain(`${TEST_PUBLIC_URL}/files?mode=print`);
    }
    // Another worker looking in the same week queues nothing.
    await restartServer();
    await expectMailCount(3);
  });

  it('graded scans read: their uploader gets the report unless turned off; the return file ready: every admin hears it', async () => {
    sink.clear();
    expect((await api(h.app, coordinatorB, 'PATCH', '/api/mail/settings', { upload_reports: false })).status).toBe(200);
    const packets = await congregationsOfFile();
    const uploads = new Map<string, string>();
    for (const [congregationId, who, seed] of [[congregationA, coordinatorA, 11], [congregationB, coordinatorB, 12]] as const) {
      const packetId = packets.find((row) => row.id === congregationId)!.packet_id;
      const download = await api(h.app, who, 'GET', `/api/study-helpers/distributed-files/${packetId}.pdf`);
      expect(download.status).toBe(200);
      const packet = new Uint8Array(download.raw.rawPayload);
      const uploaded = await uploadGraded(h.app, who, await scanGradedPackets(packet, { seed }), { name: `Graded ${congregationId === congregationA ? 'A' : 'B'}` });
      expect(uploaded.status).toBe(201);
      expect(await waitForUpload(db, uploaded.body.id!)).toBe('success');
      uploads.set(congregationId, uploaded.body.id!);
      if (congregationId === congregationA) {
        await expectMailCount(1);
        const report = only('coordinator.a@example.org', 'Upload read: Graded A').mail;
        expect(report.text).toContain(`Matched: ${pdfPageCount(packet)}. Not matched: 0.`);
        expect(report.text).toContain(`${TEST_PUBLIC_URL}/files/uploads/${uploads.get(congregationA)}`);
      }
    }
    await waitFor('the return file', async () => ((await api(h.app, admin, 'GET', `/api/file/${fileId}/steps`)).json as unknown as { prepped: boolean }).prepped);
    // Coordinator B turned reports off: the return file is all that follows.
    await expectMailCount(3);
    expect(sink.to('coordinator.b@example.org')).toEqual([]);
    for (const address of ['admin@test.local', 'second-admin@test.local']) {
      const mail = only(address, `A return file is ready to download: ${FILE_NAME}`).mail;
      expect(mail.text).toContain(`${TEST_PUBLIC_URL}/file/${fileId}`);
    }
    // Every message is in the record admins read, as sent.
    const record = (await api(h.app, secondAdmin, 'GET', '/api/mail/messages?status=sent&limit=50')).json as unknown as { total: number };
    expect(record.total).toBe(3 + 3 + 3 + 3 + 1 + 2);
  });
});
