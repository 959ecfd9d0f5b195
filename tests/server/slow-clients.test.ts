// Slow clients are closed: an upload whose body stops arriving ends after BODY_TIMEOUT_SECONDS
// (1 s here, 30 s by default) with nothing written, and one user cannot keep more than three
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
function startSlowUpload(port: number, who: SignedIn): SlowUpload {
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
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nSlow\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    ].join('\r\n'),
  );
  socket.write(Buffer.alloc(64 * 1024, 0x20));
  return { socket, closed };
}

describe('slow clients', () => {
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    test = await createTestApp({
      env: { BODY_TIMEOUT_SECONDS: '1' },
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
    await expect.poll(tempFiles, { timeout: 5_000 }).toHaveLength(1);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const { afterMs } = await upload.closed;
    expect(afterMs).toBeGreaterThanOrEqual(900);
    expect(afterMs).toBeLessThan(10_000);
    await expect.poll(tempFiles, { timeout: 5_000 }).toEqual([]);
    expect(await test.db.query('SELECT 1 FROM files')).toEqual([]);
  });

  it('keeps a body that goes on arriving, however slowly, within the idle limit', async () => {
    const who = await admin(test.app);
    const upload = startSlowUpload(port, who);
    // A byte every 400 ms for 2.4 s: never 1 s silent, so never cut off.
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(upload.socket.destroyed).toBe(false);
      upload.socket.write(' ');
    }
    const { afterMs } = await upload.closed;
    expect(afterMs).toBeGreaterThan(2_400);
  });

  it('refuses a fourth upload arriving at once from one user with 429, not reading it', async () => {
    const who = await admin(test.app);
    const uploads = [startSlowUpload(port, who), startSlowUpload(port, who), startSlowUpload(port, who)];
    // Kept arriving (a byte every 200 ms) until the end of the check.
    const dribble = setInterval(() => uploads.forEach((upload) => upload.socket.write(' ')), 200);
    try {
      await expect.poll(tempFiles, { timeout: 10_000 }).toHaveLength(3);
      const fourth = startSlowUpload(port, who);
      const { answer } = await fourth.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(answer).toContain('"error_type":"TOO_MANY_UPLOADS"');
      // Another user is not held up by this one's uploads.
      const other = await admin(test.app, 'other-admin@test.local');
      const theirs = startSlowUpload(port, other);
      uploads.push(theirs);
      await expect.poll(tempFiles, { timeout: 10_000 }).toHaveLength(4);
    } finally {
      clearInterval(dribble);
    }
    await Promise.all(uploads.map((upload) => upload.closed));
    // Once they have ended, the user may upload again.
    const again = startSlowUpload(port, who);
    await expect.poll(tempFiles, { timeout: 10_000 }).toHaveLength(1);
    await again.closed;
    await expect.poll(tempFiles, { timeout: 5_000 }).toEqual([]);
  });
});
