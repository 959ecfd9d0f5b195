// An upload announced over the limit is refused before its body is read (nothing reaches the
// disk), and temporary files of writes that stopped are removed.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPlugins } from '../../server/routes/index';
import { createJobsPlugin, jobsPlugin } from '../../server/jobs/jobs-plugin';
import { admin } from './support';
import { createTestApp, temporaryFilesLeft, type TestApp } from '../helpers/test-app';

describe('POST /api/file with Content-Length over 1.5 GB', () => {
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    test = await createTestApp({ plugins: apiPlugins().map((plugin) => (plugin === jobsPlugin ? createJobsPlugin({ work: false }) : plugin)) });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as { port: number }).port;
  }, 90_000);

  afterAll(async () => {
    await test?.close();
  });

  it('answers 413 FILE_TOO_LARGE at once, having written nothing', async () => {
    const who = await admin(test.app);
    const boundary = 'limit-test';
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('error', (error) => (received === '' ? reject(error) : resolve(received)));
      socket.on('close', () => resolve(received));
      socket.write(
        [
          'POST /api/file HTTP/1.1',
          'Host: localhost:3000',
          `Cookie: ${who.headers.cookie}`,
          `Origin: ${who.headers.origin}`,
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          'Content-Length: 1600000000',
          '',
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ].join('\r\n'),
      );
      // A first megabyte of the 1.6 GB; the rest is never sent.
      socket.write(Buffer.alloc(1024 * 1024, 0x25));
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('{"detail":{"error_type":"FILE_TOO_LARGE","message":"File too large"}}');
    expect(await temporaryFilesLeft(test)).toEqual([]);
  });
});
