// A request with X-Forwarded-For while TRUST_PROXY is unset is said once in the log.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { warnOfForwardedRequests } from '../forwarded-warning.js';

describe('the X-Forwarded-For warning', () => {
  it('warns once, at the first forwarded request, and not for direct ones', async () => {
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as { level: number; msg: string });
        done();
      },
    });
    const app = Fastify({ logger: { level: 'warn', stream } });
    warnOfForwardedRequests(app);
    app.get('/healthz', async () => ({ status: 'ok' }));
    await app.inject({ url: '/healthz' });
    expect(lines).toEqual([]);
    await app.inject({ url: '/healthz', headers: { 'x-forwarded-for': '203.0.113.7' } });
    await app.inject({ url: '/healthz', headers: { 'x-forwarded-for': '203.0.113.8' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(40);
    expect(lines[0]!.msg).toContain('TRUST_PROXY is unset');
    await app.close();
  });
});
