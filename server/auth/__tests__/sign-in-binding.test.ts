// Login CSRF and open redirects: a sign-in finishes only in the browser that started it, and
// return_to lands only on plain paths of this origin, whatever it holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.js';
import { safeReturnPath } from '../routes.js';

describe('a sign-in bound to the browser that started it', () => {
  let test: TestApp;
  let started = 0;

  beforeAll(async () => {
    // An issuer that accepts every code: what is left to refuse is the portal's own check.
    test = await createTestApp({
      oidcClient: {
        start: async () => {
          started += 1;
          const state = `state-${started}-${Math.random().toString(36).slice(2)}`;
          return { checks: { state, nonce: 'n', codeVerifier: 'v' }, url: new URL(`https://issuer.example/auth?state=${state}`) };
        },
        finish: async () => ({ email: 'someone@example.org', subject: 'someone' }),
      },
    });
  }, 90_000);

  afterAll(async () => {
    await test?.close();
  });

  const login = async (query = '', remoteAddress = '127.0.0.1') => {
    const response = await test.app.inject({ method: 'GET', url: `/api/auth/login${query}`, remoteAddress });
    const state = new URL(String(response.headers.location)).searchParams.get('state') as string;
    const cookie = [response.headers['set-cookie']].flat().find((line) => line?.startsWith('sign_in=')) ?? '';
    return { response, state, cookie };
  };
  const callback = (state: string, cookies: Record<string, string> = {}) =>
    test.app.inject({ method: 'GET', url: `/api/auth/callback?code=c&state=${encodeURIComponent(state)}`, cookies });
  const sessionCookie = (response: { headers: Record<string, unknown> }) =>
    [response.headers['set-cookie']].flat().some((line) => typeof line === 'string' && line.startsWith('session='));

  it('sets a short-lived httpOnly cookie holding the state', async () => {
    const { response, state, cookie } = await login();
    expect(response.statusCode).toBe(302);
    expect(cookie).toBe(`sign_in=${state}; Max-Age=900; Path=/; HttpOnly; SameSite=Lax`);
  });

  it('signs nobody in when the link is opened in another browser (no cookie, or another one)', async () => {
    const attacker = await login();
    const victim = await callback(attacker.state);
    expect(victim.statusCode).toBe(400);
    expect(victim.headers['content-type']).toMatch(/^text\/html/);
    expect(victim.body).toContain('This sign-in was not started in this browser');
    expect(victim.body).toContain('href="/api/auth/login"');
    expect(sessionCookie(victim)).toBe(false);
    // The link is used up: the attacker cannot finish it either.
    const replay = await callback(attacker.state, { sign_in: attacker.state });
    expect(replay.statusCode).toBe(302);
    expect(sessionCookie(replay)).toBe(false);

    const other = await login();
    const victimWithOwn = await login();
    const mixed = await callback(other.state, { sign_in: victimWithOwn.state });
    expect(mixed.statusCode).toBe(400);
    expect(sessionCookie(mixed)).toBe(false);
  });

  it('finishes in the browser that started it', async () => {
    const own = await login('?return_to=%2Fstudents%3Fcountry%3DGH');
    const response = await callback(own.state, { sign_in: own.state });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/students?country=GH');
    expect(sessionCookie(response)).toBe(true);
  });

  it('lands on / for any return_to that is not a plain same-origin path, and never answers 5xx', async () => {
    const hostile = [
      '/\t/evil.example/x',
      '/%09/evil.example/x',
      '/\r\nSet-Cookie: x=1',
      '/%0d%0aLocation: //evil.example',
      '/\\evil.example',
      '/%5Cevil.example',
      '//evil.example',
      '/%2F/evil.example',
      '/%2f%2fevil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/ évil',
      '/漢字',
      '/\u0085x',
      '/a b',
      '/%ZZ',
      '/\u2028',
      '',
      'x'.repeat(3000),
    ];
    for (const value of hostile) {
      const own = await login(`?return_to=${encodeURIComponent(value)}`);
      expect(own.response.statusCode, JSON.stringify(value)).toBeLessThan(500);
      if (own.response.statusCode !== 302) continue;
      const response = await callback(own.state, { sign_in: own.state });
      expect(response.statusCode, JSON.stringify(value)).toBe(302);
      expect(response.headers.location, JSON.stringify(value)).toBe('/');
    }
  });

  it('limits how many sign-ins one address starts per minute (429), not other addresses', async () => {
    await test.db.query('DELETE FROM login_states');
    for (let i = 0; i < 30; i++) expect((await login('', '203.0.113.7')).response.statusCode).toBe(302);
    const refused = await test.app.inject({ method: 'GET', url: '/api/auth/login', remoteAddress: '203.0.113.7' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: 'Too many sign-ins started from this network. Try again in a minute.' });
    expect(refused.headers['retry-after']).toBe('60');
    expect((await login('', '198.51.100.2')).response.statusCode).toBe(302);
    const rows = await test.db.one<{ n: number }>(`SELECT count(*) AS n FROM login_states WHERE client_address = '203.0.113.7'`);
    expect(Number(rows.n)).toBe(30);
  });

  it('forgets started sign-ins after 15 minutes', async () => {
    await test.db.query(`INSERT INTO login_states (state, code_verifier, nonce, created_at) VALUES ('stale', 'v', 'n', now() - interval '16 minutes')`);
    await login('', '192.0.2.1');
    expect(await test.db.query(`SELECT 1 FROM login_states WHERE state = 'stale'`)).toEqual([]);
  });
});

describe('safeReturnPath', () => {
  it('keeps plain paths with a query', () => {
    for (const path of ['/', '/students', '/files?mode=print', '/students/5f0c?country=GH&studyHelper=x', '/a%20b'.replace('%20', '-'), '/caf%C3%A9']) {
      expect(safeReturnPath(path)).toBe(path);
    }
  });

  it('refuses other origins, backslashes, white space and controls, also percent-encoded', () => {
    for (const path of ['//x', '/\\x', '/%5Cx', '/%2F/x', '/\t/x', '/%09/x', '/%0A', '/%00', '/a%20b', '/%E2%80%A8', 'x/', 'https://x', '/%ZZ', '/#x', undefined, 3]) {
      expect(safeReturnPath(path)).toBeNull();
    }
  });
});

describe('behind a reverse proxy (TRUST_PROXY=1)', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp({ env: { TRUST_PROXY: '1' } });
  }, 90_000);

  afterAll(async () => {
    await test?.close();
  });

  it("counts sign-in starts by the proxy's client address, not the proxy's own", async () => {
    const start = (client: string) =>
      test.app.inject({ method: 'GET', url: '/api/auth/login', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < 30; i++) expect((await start('203.0.113.7')).statusCode).toBe(302);
    expect((await start('203.0.113.7')).statusCode).toBe(429);
    expect((await start('198.51.100.9')).statusCode).toBe(302);
  });
});
