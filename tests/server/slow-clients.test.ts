// Slow clients are closed: an upload whose body stops arriving ends after BODY_TIMEOUT_SECONDS
// (10 s here, 30 s by default) with nothing written, and one user cannot keep more than three
// uploads arriving at once. Other requests are answered meanwhile.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPlugins } from '../../server/routes/index';
import { createJobsPlugin, jobsPlugin } from '../../server/jobs/jobs-plugin';
import { admin } from './support';
import { createTestApp, temporaryFilesLeft, type TestApp } from '../helpers/test-app';
import type { SignedIn } from '../helpers/sign-in';

interface SlowUpload {
  socket: Socket;
  /** What the server answered, once the connection is closed. */
  closed: Promise<{ answer: string; afterMs: number }>;
}

/** Starts a 10 MB upload, sends its first kilobytes and then nothing. */
/**
 * The request's head, then (with `firstBytes` > 0) the body's start and `firstBytes` of the file.
 * An upload expected to be refused is sent its head alone: body bytes the server never read make
 * its close a reset, which may drop its answer before the client reads it.
 */
function startSlowUpload(port: number, who: SignedIn, firstBytes = 64 * 1024): SlowUpload {
  const boundary = 'slow-test';
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  const closed = new Promise<{ answer: string; afterMs: number }>((resolve) => {
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer: received, afterMs: Date.now() - started }));
  });
  socket.write(
    [
      'POST /api/file HTTP/1.1',
      'Host: localhost:3000',
      `Cookie: ${who.headers.cookie}`,
      `Origin: ${who.headers.origin}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      'Content-Length: 10000000',
      '',
      '',
    ].join('\r\n'),
  );
  if (firstBytes === 0) return { socket, closed };
  socket.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nSlow\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
  );
  socket.write(Buffer.alloc(firstBytes, 0x20));
  return { socket, closed };
}

describe('slow clients', () => {
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    test = await createTestApp({
      // 10 s: this process also runs the test's clients, and a loaded machine can stall it for seconds.
      env: { BODY_TIMEOUT_SECONDS: '10' },
      plugins: apiPlugins().map((plugin) => (plugin === jobsPlugin ? createJobsPlugin({ work: false }) : plugin)),
    });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as { port: number }).port;
  }, 90_000);

  afterAll(async () => {
    await test?.close();
  });

  const tempFiles = () => temporaryFilesLeft(test);

  it('ends an upload whose body stops arriving, removing what was written', async () => {
    const who = await admin(test.app);
    const upload = startSlowUpload(port, who);
    // While the body is stalled the upload's temporary file exists, and others are answered.
    await expect.poll(tempFiles, { timeout: 20_000 }).toHaveLength(1);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const { afterMs } = await upload.closed;
    expect(afterMs).toBeGreaterThanOrEqual(9_900);
    expect(afterMs).toBeLessThan(40_000);
    await expect.poll(tempFiles, { timeout: 20_000 }).toEqual([]);
    expect(await test.db.query('SELECT 1 FROM files')).toEqual([]);
  });

  it('keeps a body that goes on arriving, however slowly, within the idle limit', async () => {
    const who = await admin(test.app);
    const upload = startSlowUpload(port, who);
    // A byte every 400 ms for 2.4 s: never 10 s silent, so never cut off.
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(upload.socket.destroyed).toBe(false);
      upload.socket.write(' ');
    }
    const { afterMs } = await upload.closed;
    expect(afterMs).toBeGreaterThan(2_400);
  });

  it('refuses a fourth upload arriving at once from one user with 429, not reading it', async () => {
    // A user of its own: the server may still be ending the uploads of the tests before.
    const who = await admin(test.app, 'four-uploads@test.local');
    const uploads = [startSlowUpload(port, who), startSlowUpload(port, who), startSlowUpload(port, who)];
    // Kept arriving (a byte every 200 ms) until the end of the check.
    const dribble = setInterval(() => uploads.forEach((upload) => upload.socket.write(' ')), 200);
    try {
      await expect.poll(tempFiles, { timeout: 30_000 }).toHaveLength(3);
      const fourth = startSlowUpload(port, who, 0);
      const { answer } = await fourth.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(answer).toContain('"error_type":"TOO_MANY_UPLOADS"');
      // Another user is not held up by this one's uploads.
      const other = await admin(test.app, 'other-admin@test.local');
      const theirs = startSlowUpload(port, other);
      uploads.push(theirs);
      await expect.poll(tempFiles, { timeout: 30_000 }).toHaveLength(4);
    } finally {
      clearInterval(dribble);
    }
    await Promise.all(uploads.map((upload) => upload.closed));
    // Once they have ended, the user may upload again.
    const again = startSlowUpload(port, who);
    await expect.poll(tempFiles, { timeout: 30_000 }).toHaveLength(1);
    await again.closed;
    await expect.poll(tempFiles, { timeout: 20_000 }).toEqual([]);
  }, 120_000);

  it('counts the bytes of a resumable upload among them: its PATCH is refused with 429 while three arrive', async () => {
    const who = await admin(test.app, 'resumable-admin@test.local');
    const tus = { 'tus-resumable': '1.0.0', ...who.headers };
    const bytes = Buffer.from('%PDF-1.4\n');
    const metadata = [['kind', 'service_center'], ['name', 'Resumable'], ['filename', 'resumable.pdf'], ['answer_sheet_page_length', '0']]
      .map(([key, value]) => `${key} ${Buffer.from(value!).toString('base64')}`)
      .join(',');
    const created = await test.app.inject({ method: 'POST', url: '/api/uploads/resumable', headers: { ...tus, 'upload-length': '1000', 'upload-metadata': metadata } });
    expect(created.statusCode).toBe(201);
    const location = new URL(String(created.headers.location), 'http://localhost').pathname;
    const write = () =>
      test.app.inject({ method: 'PATCH', url: location, headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, payload: bytes });

    const uploads = [startSlowUpload(port, who), startSlowUpload(port, who), startSlowUpload(port, who)];
    const dribble = setInterval(() => uploads.forEach((upload) => upload.socket.write(' ')), 200);
    try {
      await expect.poll(tempFiles, { timeout: 30_000 }).toHaveLength(3);
      const refused = await write();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ detail: { error_type: 'TOO_MANY_UPLOADS', message: 'You are already sending 3 uploads. Try again when one of them has arrived.' } });
    } finally {
      clearInterval(dribble);
    }
    await Promise.all(uploads.map((upload) => upload.closed));
    // Nothing of it was kept; once the others have ended it is written.
    let accepted = await write();
    await expect.poll(async () => (accepted.statusCode === 429 ? (accepted = await write()) : accepted).statusCode, { timeout: 30_000 }).toBe(204);
    expect(accepted.headers['upload-offset']).toBe(String(bytes.length));
  }, 120_000);
});
