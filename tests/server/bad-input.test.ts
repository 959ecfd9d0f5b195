// Bad input is a 400 in the spec's shape {"detail": {"error_type": "VALIDATION_ERROR", ...}},
// refused at the edge before it reaches a handler or the database, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPlugins } from '../../server/routes/index';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { admin, call, useRouteTests } from './support';

const validationError = { detail: { error_type: 'VALIDATION_ERROR', message: expect.any(String) } };

describe('bad input at the edge', () => {
  const t = useRouteTests();

  it('refuses a NUL byte in any path or query parameter', async () => {
    const who = await admin(t.app);
    for (const url of [
      '/api/countries?q=a%00',
      '/api/congregations?wbs_code=%00',
      '/api/files?query_name=x%00y',
      '/api/study-helpers?name=%00',
      '/api/countries/G%00',
      '/api/courses?name=%00',
    ]) {
      const response = await call(t.app, who, 'GET', url);
      expect(response.status, url).toBe(400);
      expect(response.body, url).toEqual(validationError);
    }
  });

  it('refuses a NUL byte or a lone surrogate in any JSON text, values and keys', async () => {
    const who = await admin(t.app);
    for (const payload of [
      { wbs_code: 'AB 1000', display_name: 'x\u0000' },
      { wbs_code: 'AB 1000', display_name: '\ud800' },
      { wbs_code: 'AB 1000', display_name: 'ok', 'a\u0000': 1 },
    ]) {
      const response = await call(t.app, who, 'POST', '/api/congregations', payload);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(validationError);
    }
  });

  it('bounds skip and limit on every list', async () => {
    const who = await admin(t.app);
    for (const list of ['/api/students', '/api/files', '/api/congregations', '/api/service_centers', '/api/countries', '/api/courses']) {
      for (const query of ['skip=99999999999999999999', 'skip=2147483648', 'limit=9223372036854775808', 'skip=-1', 'skip=1e400']) {
        const response = await call(t.app, who, 'GET', `${list}?${query}`);
        expect(response.status, `${list}?${query}`).toBe(400);
        expect(response.body).toEqual(validationError);
      }
      expect((await call(t.app, who, 'GET', `${list}?skip=2147483647&limit=500`)).status).toBe(200);
    }
  });

  it('answers a malformed URL and invalid JSON in the spec shape', async () => {
    const who = await admin(t.app);
    for (const url of ['/api/countries/%ZZ', '/api/file/%E0%A4%A/stats']) {
      const response = await call(t.app, who, 'GET', url);
      expect(response.status, url).toBe(400);
      expect(response.body, url).toEqual({ detail: { error_type: 'VALIDATION_ERROR', message: 'The URL is malformed' } });
    }
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/congregations',
      headers: { ...who.headers, 'content-type': 'application/json' },
      payload: '{"wbs_code": ',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual(validationError);
  });
});

describe('over https', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp({ plugins: apiPlugins(), env: { PUBLIC_URL: 'https://portal.example.org' } });
  }, 90_000);

  afterAll(async () => {
    await test?.close();
  });

  it('sends HSTS, also on the sign-in provider answers', async () => {
    for (const url of ['/healthz', '/api/auth/me', '/oidc/.well-known/openid-configuration', '/oidc/jwks']) {
      const response = await test.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.headers['strict-transport-security'], url).toBe('max-age=31536000');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('binds the sign-in with a __Host- cookie', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/auth/login' });
    const cookie = [response.headers['set-cookie']].flat().find((line) => line?.startsWith('__Host-sign_in=')) ?? '';
    expect(cookie).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });
});
