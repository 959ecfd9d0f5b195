// People told by e-mail, through a real mail server started here (smtp-server as the sink,
// every message parsed with mailparser): each event sends exactly one message per address, a
// refused message is tried again, a restarted server sends nothing twice, and without SMTP_URL
// messages are kept as not sent. The job runner is the real one (quick sweeps for tests).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tellFileRead, tellPacketsReady, tellReturnFileReady, tellUploadReport, remindWaitingPackets } from '../../server/workflow/notifications';
import { MailSink } from '../helpers/mail-sink';
import { TEST_PUBLIC_URL } from '../helpers/test-app';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { call, emptyTables, insertAnswerSheet, insertCongregation, insertFile, insertPage } from './support';
import { waitFor } from './workflow-world';

const sink = new MailSink();
let h: PipelineApp;
/** The first app owns the database; later ones are the same server restarted. */
let owner: PipelineApp;
let admin: SignedIn;

/** A server whose jobs run (its queue started, as after its first file). */
async function appWithMail(db?: PipelineApp['db'], env: Record<string, string> = { SMTP_URL: sink.url, MAIL_FROM: 'Portal <portal@test.local>' }): Promise<PipelineApp> {
  const app = await createPipelineApp({ env, ...(db ? { db } : {}) });
  await app.app.jobs.start();
  return app;
}

async function addAddress(congregationId: string, email: string): Promise<void> {
  const { status } = await call(h.app, admin, 'POST', `/api/congregations/${congregationId}/emails`, { email });
  expect(status).toBe(201);
}

/** Waits until the sink holds `count` messages, then a little longer to catch any extra one. */
async function expectReceived(count: number): Promise<void> {
  await waitFor(`${count} messages`, async () => sink.received.length >= count, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(sink.received.length).toBe(count);
}

/** A file sent to two congregations: 3 kept sheets to the first, 1 to the second (and one page ignored). */
async function sentFile(name: string, sentDaysAgo = 0) {
  const first = await insertCongregation(h.db, `NG ${Math.floor(1000 + Math.random() * 8999)}`);
  const second = await insertCongregation(h.db, `GH ${Math.floor(1000 + Math.random() * 8999)}`);
  const fileId = await insertFile(h.db, name, { sentAt: new Date(Date.now() - sentDaysAgo * 86_400_000) });
  let page = 1;
  for (const group of [first, first, first, second]) {
    await insertPage(h.db, fileId, page++, await insertAnswerSheet(h.db, fileId, { assignedGroup: group }));
  }
  await h.db.query(`INSERT INTO packets (file_id, congregation_id) VALUES ($1, $2), ($1, $3)`, [fileId, first, second]);
  await h.db.query(
    `INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, 'unprinted'), ($1, $3, 'graded')`,
    [fileId, first, second],
  );
  return { fileId, first, second };
}

/** A graded upload named after its uploader, `status` as processing left it. */
async function gradedUpload(congregationId: string, who: SignedIn, status: 'pending' | 'success'): Promise<string> {
  const { id } = await h.db.one<{ id: string }>(
    `INSERT INTO graded_uploads (name, congregation_id, blob_key, sha256, size_bytes, uploaded_by, process_status)
     VALUES ($1, $2, 'k', encode(sha256(random()::text::bytea), 'hex'), 10, $3, $4) RETURNING id`,
    [`Graded by ${who.user.email}`, congregationId, who.user.id, status],
  );
  return id;
}

beforeAll(async () => {
  await sink.start();
  h = await appWithMail();
  owner = h;
}, 60_000);
afterAll(async () => {
  if (h !== owner) await h.close();
  await owner?.close();
  await sink.stop();
});
afterEach(async () => {
  expect(h.app.contractViolations).toEqual([]);
  await emptyTables(h.db);
  sink.clear();
  admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
});

describe('who hears what', () => {
  beforeAll(async () => {
    admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  });

  it('a packet ready: one message to each address of each congregation, once, with the sheets and the link', async () => {
    const { fileId, first, second } = await sentFile('Lagos batch 7');
    await addAddress(first, 'Helper.One@example.org');
    await addAddress(first, 'helper.two@example.org');
    await addAddress(second, 'accra@example.org');
    await h.db.transaction((tx) => tellPacketsReady(tx, fileId, TEST_PUBLIC_URL));
    // Told again (a job run twice after a crash): nothing more goes out.
    await h.db.transaction((tx) => tellPacketsReady(tx, fileId, TEST_PUBLIC_URL));
    await expectReceived(3);
    const one = sink.to('helper.one@example.org');
    expect(one).toHaveLength(1);
    expect(sink.to('helper.two@example.org')).toHaveLength(1);
    const mail = one[0]!.mail;
    expect(mail.subject).toBe('A packet is ready to print: Lagos batch 7');
    expect(mail.from?.value).toEqual([{ name: 'Portal', address: 'portal@test.local' }]);
    expect(mail.text).toContain('Lagos batch 7, 3 answer sheets');
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/files?mode=print`);
    expect(mail.html).toContain(`href="${TEST_PUBLIC_URL}/files?mode=print"`);
    expect(sink.to('accra@example.org')[0]!.mail.text).toContain('1 answer sheet.');
    const record = await call(h.app, admin, 'GET', '/api/mail/messages');
    expect(record.body).toMatchObject({ total: 3 });
    expect((record.body as { items: { status: string; attempts: number; sent_at: string | null }[] }).items.every((m) => m.status === 'sent' && m.attempts === 1 && m.sent_at !== null)).toBe(true);
  });

  it('a packet that waits: a reminder once a week while unprinted or not fully graded', async () => {
    const { first, second } = await sentFile('Kumasi batch 2', 8);
    await addAddress(first, 'wait@example.org');
    await addAddress(second, 'done@example.org');
    expect(await remindWaitingPackets(h.db, TEST_PUBLIC_URL)).toBe(1);
    expect(await remindWaitingPackets(h.db, TEST_PUBLIC_URL)).toBe(0);
    await expectReceived(1);
    expect(sink.to('wait@example.org')[0]!.mail.subject).toBe('Reminder: a packet waits: Kumasi batch 2');
    expect(sink.to('wait@example.org')[0]!.mail.text).toContain('sent 8 days ago, is not printed yet');
    // A week later: the next reminder.
    await h.db.query(`UPDATE files SET sent_at = sent_at - interval '7 days'`);
    expect(await remindWaitingPackets(h.db, TEST_PUBLIC_URL)).toBe(1);
    await expectReceived(2);
  });

  it('an upload read: its uploader gets the report, unless they turned it off', async () => {
    const congregation = await insertCongregation(h.db, 'NG 4242');
    const keen = await signIn(h.app, 'keen@example.org', { role: 'study_helper_coordinator', congregationId: congregation });
    const quiet = await signIn(h.app, 'quiet@example.org', { role: 'study_helper_coordinator', congregationId: congregation });
    expect((await call(h.app, quiet, 'PATCH', '/api/mail/settings', { upload_reports: false })).body).toEqual({ upload_reports: false });
    expect((await call(h.app, keen, 'GET', '/api/mail/settings')).body).toEqual({ upload_reports: true });
    const uploads: string[] = [];
    for (const who of [keen, quiet]) {
      const id = await gradedUpload(congregation, who, 'success');
      await h.db.query(
        `INSERT INTO graded_upload_pages (upload_id, page_number, blank, outcome) VALUES ($1, 1, false, 'matched'), ($1, 2, false, 'matched'), ($1, 3, false, 'unknown_code'), ($1, 4, true, 'blank')`,
        [id],
      );
      uploads.push(id);
      await h.db.transaction((tx) => tellUploadReport(tx, id, TEST_PUBLIC_URL));
    }
    await expectReceived(1);
    const mail = sink.to('keen@example.org')[0]!.mail;
    expect(mail.subject).toBe('Upload read: Graded by keen@example.org');
    expect(mail.text).toContain('Matched: 2. Not matched: 1. Blank and dropped: 1.');
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/files/uploads/${uploads[0]}`);
  });

  it('reading that cannot finish: the uploader hears it was not read, and why, unless they turned reports off', async () => {
    const congregation = await insertCongregation(h.db, 'NG 4343');
    const keen = await signIn(h.app, 'keen@example.org', { role: 'study_helper_coordinator', congregationId: congregation });
    const quiet = await signIn(h.app, 'quiet@example.org', { role: 'study_helper_coordinator', congregationId: congregation });
    expect((await call(h.app, quiet, 'PATCH', '/api/mail/settings', { upload_reports: false })).status).toBe(200);
    const fileId = await insertFile(h.db, 'Broken batch');
    await h.db.query(`UPDATE files SET process_status = 'pending', uploaded_by = $2 WHERE id = $1`, [fileId, admin.user.id]);
    const uploads = [await gradedUpload(congregation, keen, 'pending'), await gradedUpload(congregation, quiet, 'pending')];
    // As left by five workers that died holding each: the next one gives up.
    await h.db.query(
      `INSERT INTO job_leases (job, target_id, token, lease_until, attempts)
       SELECT job, target, 'dead-worker', now() - interval '1 second', 5
       FROM (VALUES ('process_service_center_upload', $1::uuid), ('process_graded_upload', $2::uuid), ('process_graded_upload', $3::uuid)) AS t(job, target)`,
      [fileId, uploads[0], uploads[1]],
    );
    await expectReceived(2);
    const file = sink.to('admin@test.local')[0]!.mail;
    expect(file.subject).toBe('File not read: Broken batch');
    expect(file.text).toContain('Your file Broken batch could not be read.');
    expect(file.text).toContain('stopped 5 times');
    expect(file.text).toContain(`${TEST_PUBLIC_URL}/file/${fileId}`);
    const upload = sink.to('keen@example.org')[0]!.mail;
    expect(upload.subject).toBe('Upload not read: Graded by keen@example.org');
    expect(upload.text).toContain(`${TEST_PUBLIC_URL}/files/uploads/${uploads[0]}`);
    expect(sink.to('quiet@example.org')).toEqual([]);
  });

  it('a file read: the uploader gets its counts; flags in Review tell every admin, with each flag counted', async () => {
    const second = await signIn(h.app, 'second-admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const fileId = await insertFile(h.db, 'Abuja batch 3');
    await h.db.query('UPDATE files SET uploaded_by = $2 WHERE id = $1', [fileId, second.user.id]);
    const sheet = await insertAnswerSheet(h.db, fileId);
    for (const page of [1, 2, 3]) await insertPage(h.db, fileId, page, sheet);
    await h.db.query(`UPDATE pages SET flag = CASE page_number WHEN 1 THEN 'no_code_found' ELSE 'out_of_order' END WHERE file_id = $1 AND page_number > 0`, [fileId]);
    await h.db.transaction((tx) => tellFileRead(tx, fileId, TEST_PUBLIC_URL));
    await expectReceived(3);
    const review = sink.to('admin@test.local')[0]!.mail;
    expect(review.subject).toBe('A file waits in Review: Abuja batch 3');
    expect(review.text).toContain('3 flagged pages');
    expect(review.text).toContain('out of order: 2');
    expect(review.text).toContain('no code found: 1');
    expect(review.text).toContain(`${TEST_PUBLIC_URL}/file/${fileId}`);
    const toUploader = sink.to('second-admin@test.local').map((r) => r.mail.subject).sort();
    expect(toUploader).toEqual(['A file waits in Review: Abuja batch 3', 'File read: Abuja batch 3']);
  });

  it('a return file ready: every admin hears it once; made again from new scans, again', async () => {
    await signIn(h.app, 'second-admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const fileId = await insertFile(h.db, 'Enugu batch 1');
    await h.db.query(`UPDATE files SET return_blob_key = 'first' WHERE id = $1`, [fileId]);
    await h.db.transaction((tx) => tellReturnFileReady(tx, fileId, TEST_PUBLIC_URL));
    await h.db.transaction((tx) => tellReturnFileReady(tx, fileId, TEST_PUBLIC_URL));
    await expectReceived(2);
    expect(sink.to('admin@test.local')[0]!.mail.subject).toBe('A return file is ready to download: Enugu batch 1');
    await h.db.query(`UPDATE files SET return_blob_key = 'second' WHERE id = $1`, [fileId]);
    await h.db.transaction((tx) => tellReturnFileReady(tx, fileId, TEST_PUBLIC_URL));
    await expectReceived(4);
  });
});

describe('sending', () => {
  beforeAll(async () => {
    admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  });

  it('tries again, after a wait, a message the mail server refused; the record says why meanwhile', async () => {
    const { fileId, first } = await sentFile('Ibadan batch 9');
    await addAddress(first, 'retry@example.org');
    sink.refuseNext = 1;
    await h.db.transaction((tx) => tellPacketsReady(tx, fileId, TEST_PUBLIC_URL));
    const failed = await waitFor('a failed try', () =>
      h.db.maybeOne<{ status: string; attempts: number; error: string; wait: number }>(
        `SELECT status, attempts, error, extract(epoch FROM next_attempt_at - now())::int AS wait FROM mail_messages WHERE attempts = 1 AND error IS NOT NULL`,
      ),
    );
    expect(failed).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failed.error).toContain('451');
    // It waits about a minute before the next try.
    expect(failed.wait).toBeGreaterThan(50);
    expect(failed.wait).toBeLessThanOrEqual(60);
    expect(sink.received).toHaveLength(0);
    const listed = await call(h.app, admin, 'GET', '/api/mail/messages?status=queued');
    expect(listed.body).toMatchObject({ total: 1, items: [{ to: 'retry@example.org', status: 'queued', attempts: 1 }] });
    // The minute passes.
    await h.db.query(`UPDATE mail_messages SET next_attempt_at = now()`);
    await expectReceived(1);
    expect(await h.db.one('SELECT status, attempts, error FROM mail_messages')).toEqual({ status: 'sent', attempts: 2, error: null });
  });

  it('sends nothing twice after a restart, and sends after it what was still waiting', async () => {
    const { fileId, first } = await sentFile('Jos batch 4');
    await addAddress(first, 'restart@example.org');
    await h.db.transaction((tx) => tellPacketsReady(tx, fileId, TEST_PUBLIC_URL));
    await expectReceived(1);
    // A message queued while the mail server refuses, then the server restarts.
    sink.refuseNext = 1;
    await h.db.query(`UPDATE files SET return_blob_key = 'made' WHERE id = $1`, [fileId]);
    await h.db.transaction((tx) => tellReturnFileReady(tx, fileId, TEST_PUBLIC_URL));
    await waitFor('a failed try', () => h.db.maybeOne(`SELECT 1 FROM mail_messages WHERE status = 'queued' AND attempts = 1`));
    const db = h.db;
    await h.app.close();
    await db.query(`UPDATE mail_messages SET next_attempt_at = now() WHERE status = 'queued'`);
    h = await appWithMail(db);
    // The restarted server tells of the same events again (its jobs run again): nothing new is queued.
    await h.db.transaction((tx) => tellPacketsReady(tx, fileId, TEST_PUBLIC_URL));
    await expectReceived(2);
    expect(sink.to('restart@example.org')).toHaveLength(1);
    expect(sink.to('admin@test.local')).toHaveLength(1);
  });
});

describe('without a mail server', () => {
  it('keeps every message, as not sent, and fails nothing', async () => {
    const db = h.db;
    await h.app.close();
    h = await appWithMail(db, {});
    admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const { fileId, first } = await sentFile('Kano batch 5');
    await addAddress(first, 'nobody@example.org');
    await h.db.transaction((tx) => tellPacketsReady(tx, fileId, TEST_PUBLIC_URL));
    await waitFor('the message recorded', () => h.db.maybeOne(`SELECT 1 FROM mail_messages WHERE status = 'not_sent'`));
    const listed = await call(h.app, admin, 'GET', '/api/mail/messages');
    expect(listed.body).toMatchObject({
      total: 1,
      items: [{ to: 'nobody@example.org', subject: 'A packet is ready to print: Kano batch 5', status: 'not_sent', error: 'not sent: no mail server set', sent_at: null }],
    });
    expect(sink.received).toHaveLength(0);
    await h.app.close();
    h = await appWithMail(db);
  });
});
