// The app shell: error shapes, /healthz, request ids, extra plugins, and the web app with
// SPA fallback.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.js';
import { createTestDb } from '../../tests/helpers/test-db.js';
import { CONTENT_SECURITY_POLICY } from '../app.js';
import { BlobTooLargeError } from '../blob-store.js';
import { HttpError, conflict } from '../http-error.js';

const failingRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/test/http-error', async () => {
    throw new HttpError(409, { error_type: 'DUPLICATE_FILE' });
  });
  app.get('/api/test/conflict', async () => {
    throw conflict('A baptism request already exists for this student.');
  });
  app.get('/api/test/crash', async () => {
    throw new Error('secret internals at /srv/app.ts:12');
  });
  app.get('/api/test/sql', async () => app.db.query('SELECT * FROM no_such_table WHERE secret = 1'));
  app.get('/api/test/bad-uuid', async () => app.db.query('SELECT * FROM users WHERE id = $1', ['nope']));
  app.get('/api/test/unique', async () => {
    await app.db.query(`INSERT INTO countries (iso_code, display_name) VALUES ('ZZ', 'Test') ON CONFLICT DO NOTHING`);
    await app.db.query(`INSERT INTO countries (iso_code, display_name) VALUES ('ZZ', 'Test')`);
  });
  app.get('/api/test/too-large', async () => {
    throw new BlobTooLargeError(10);
  });
  app.post('/api/test/validated', { schema: { body: { type: 'object', required: ['name'] } } }, async () => ({ ok: true }));
  app.get('/api/test/decorations', async () => ({
    db: app.db.kind,
    blobStore: typeof app.blobStore.put,
    publicUrl: app.config.publicUrl,
  }));
};

/** An onRoute plugin registered first must see every route, the app's own included. */
const seenRoutes: string[] = [];
const routeWatcher = Object.assign(
  async (app: import('fastify').FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      seenRoutes.push(`${String(route.method)} ${route.url}`);
    });
  },
  { [Symbol.for('skip-override')]: true },
);

describe('app', () => {
  let test: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'web-'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    await mkdir(path.join(webRoot, 'assets'));
    await writeFile(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log("portal")');
    test = await createTestApp({ plugins: [routeWatcher, failingRoutes], webRoot });
  }, 30_000);

  afterAll(async () => {
    await test?.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => test.app.inject({ method: 'GET', url, headers });

  it('answers /healthz with the database state', async () => {
    const response = await get('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('sends HttpError details as {"detail": ...}', async () => {
    const response = await get('/api/test/http-error');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: { error_type: 'DUPLICATE_FILE' } });
    expect((await get('/api/test/conflict')).json()).toEqual({ detail: 'A baptism request already exists for this student.' });
  });

  it('hides internals of unexpected errors and SQL failures', async () => {
    for (const url of ['/api/test/crash', '/api/test/sql']) {
      const response = await get(url);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ detail: 'Internal server error' });
      expect(response.body).not.toMatch(/secret|no_such_table|srv|stack/);
    }
  });

  it('maps database input errors to 400 and unique violations to 409 without SQL', async () => {
    const bad = await get('/api/test/bad-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Invalid input' });
    const duplicate = await get('/api/test/unique');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ detail: 'Conflict' });
  });

  it('maps a blob over its limit to 413', async () => {
    const response = await get('/api/test/too-large');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'File too large' });
  });

  it('answers schema validation failures and bad JSON with 400 {"detail": ...}', async () => {
    const invalid = await test.app.inject({ method: 'POST', url: '/api/test/validated', payload: { other: 1 } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ detail: expect.stringContaining('name') });
    const malformed = await test.app.inject({
      method: 'POST',
      url: '/api/test/validated',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(Object.keys(malformed.json())).toEqual(['detail']);
  });

  it('answers unknown /api routes with 404 {"detail": "Not Found"}', async () => {
    const response = await get('/api/no/such/route');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
    expect((await test.app.inject({ method: 'POST', url: '/api/nothing' })).statusCode).toBe(404);
  });

  it('gives every response a request id, keeping a sane incoming one', async () => {
    const response = await get('/healthz', { 'x-request-id': 'trace-123' });
    expect(response.headers['x-request-id']).toBe('trace-123');
    const generated = await get('/healthz', { 'x-request-id': 'bad id with spaces' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('decorates the app with db, blobStore and config for route plugins', async () => {
    expect((await get('/api/test/decorations')).json()).toEqual({
      db: test.db.kind,
      blobStore: 'function',
      publicUrl: 'http://localhost:3000',
    });
  });

  it('registers plugins before its own routes, so an onRoute hook sees them all', () => {
    expect(seenRoutes).toEqual(
      expect.arrayContaining(['GET /healthz', 'GET /api/auth/me', 'POST /api/auth/view-as', 'GET /api/test/crash']),
    );
  });

  it('serves the built web app, with index.html for client-side routes', async () => {
    for (const url of ['/', '/files?mode=print', '/students/123/uploads/4']) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    }
    const asset = await get('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    // Only pages carry the policy: it means nothing on a script or on JSON.
    expect(asset.headers['content-security-policy']).toBeUndefined();
    expect((await get('/healthz')).headers['content-security-policy']).toBeUndefined();
    expect(asset.body).toBe('console.log("portal")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The API never falls back to the web app.
    expect((await get('/api/students/unknown-call')).headers['content-type']).toMatch(/application\/json/);
  });
});

describe('app without a built web app', () => {
  it('answers 404 JSON for non-API paths', async () => {
    const test = await createTestApp({ webRoot: path.join(tmpdir(), 'no-such-dist') });
    try {
      const response = await test.app.inject({ method: 'GET', url: '/files' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not Found' });
    } finally {
      await test.close();
    }
  }, 30_000);
});

describe('/healthz when the database is gone', () => {
  it('answers 503', async () => {
    const db = await createTestDb({ referenceData: false });
    const test = await createTestApp({ db });
    try {
      await db.close();
      const response = await test.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'degraded', database: 'unreachable' });
    } finally {
      await test.close();
    }
  }, 30_000);
});
