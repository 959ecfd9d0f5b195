// Sessions, cookies, CSRF and the role guards, through the real app.
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.js';
import { signIn } from '../../../tests/helpers/sign-in.js';
import { createSession, SESSION_CACHE_MS, sessionIdOf } from '../session-store.js';
import { congregationScope, requireAdmin, requireAdminHook, requireCongregationAccess, requireUser } from '../session.js';

/** Routes exercising each guard the way route handlers will use them. */
const guardedRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/test/user', async (request) => ({ id: requireUser(request).id }));
  app.get('/api/test/admin', async (request) => ({ id: requireAdmin(request).id }));
  app.get('/api/test/admin-hook', { preHandler: requireAdminHook }, async () => ({ ok: true }));
  app.get<{ Params: { id: string } }>('/api/test/congregations/:id', async (request) => {
    requireCongregationAccess(request, request.params.id);
    return { ok: true };
  });
  app.get('/api/test/scope', async (request) => ({ scope: congregationScope(request) }));
  app.post('/api/test/echo', async (request) => ({ user: request.user?.email ?? null }));
};

describe('sessions and guards', () => {
  let test: TestApp;
  let congregationA: string;
  let congregationB: string;

  beforeAll(async () => {
    test = await createTestApp({ plugins: [guardedRoutes] });
    const rows = await test.db.query<{ id: string }>(
      `INSERT INTO congregations (wbs_code, display_name) VALUES ('TX 10001', 'A'), ('TX 10002', 'B') RETURNING id`,
    );
    [congregationA, congregationB] = rows.map((row) => row.id) as [string, string];
  }, 30_000);

  afterAll(async () => {
    await test?.close();
  });

  const get = (url: string, cookie?: string) => test.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('answers 401 {"detail":"Not authenticated"} without a session', async () => {
    const response = await get('/api/auth/me');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Not authenticated' });
    expect((await get('/api/auth/me', 'session=garbage')).statusCode).toBe(401);
  });

  it('answers /api/auth/me with the about-me shape', async () => {
    const coordinator = await signIn(test.app, 'Coord@Example.org', {
      role: 'study_helper_coordinator',
      congregationId: congregationA,
    });
    const response = await get('/api/auth/me', coordinator.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      email: 'coord@example.org',
      role: 'study_helper_coordinator',
      congregation: congregationA,
      is_admin: false,
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('stores only the SHA-256 of the cookie token', async () => {
    const { user } = await signIn(test.app, 'hash@example.org');
    const { token, sessionId } = await createSession(test.db, user.id, 1);
    expect(sessionId).toBe(sessionIdOf(token));
    expect(await test.db.query('SELECT 1 FROM sessions WHERE id = $1', [token])).toEqual([]);
    expect(await test.db.query('SELECT 1 FROM sessions WHERE id = $1', [sessionId])).toHaveLength(1);
  });

  it('ignores expired sessions', async () => {
    const { cookie, user } = await signIn(test.app, 'expired@example.org');
    await test.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
    expect((await get('/api/auth/me', cookie)).statusCode).toBe(401);
  });

  const logOut = (cookie?: string, origin = 'http://localhost:3000') =>
    test.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...(cookie ? { cookie } : {}), origin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });

  it('logs out on a GET nobody: the page only offers a button that posts the sign-out', async () => {
    const { cookie, user } = await signIn(test.app, 'linked@example.org');
    const page = await get('/api/auth/logout', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.body).toContain('<form method="post" action="/api/auth/logout"><button type="submit">Log Out</button></form>');
    expect(await test.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [user.id])).toHaveLength(1);
    expect((await get('/api/auth/me', cookie)).statusCode).toBe(200);
    // A post from another site is refused like every cross-site state change.
    expect((await logOut(cookie, 'https://evil.example')).statusCode).toBe(403);
    expect((await get('/api/auth/me', cookie)).statusCode).toBe(200);
  });

  it('logs out: deletes the session row, clears the cookie and redirects to /', async () => {
    const { cookie, user } = await signIn(test.app, 'leaving@example.org');
    const response = await logOut(cookie);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    const cleared = String(response.headers['set-cookie']);
    expect(cleared).toMatch(/^session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await test.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [user.id])).toEqual([]);
    expect((await get('/api/auth/me', cookie)).statusCode).toBe(401);
    // Logging out without a session is harmless.
    expect((await logOut()).statusCode).toBe(303);
  });

  it('remembers a session briefly: a change made elsewhere shows within SESSION_CACHE_MS', async () => {
    const { cookie, user } = await signIn(test.app, 'promoted@example.org');
    // The clock is held still, then moved on (the database and timers run for real).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect((await get('/api/auth/me', cookie)).json()).toMatchObject({ role: 'standard_user' });
      // As the users CLI would, from another process.
      await test.db.query(`UPDATE users SET role = 'scanning_admin' WHERE id = $1`, [user.id]);
      expect((await get('/api/auth/me', cookie)).json()).toMatchObject({ role: 'standard_user' });
      vi.setSystemTime(Date.now() + SESSION_CACHE_MS + 100);
      expect((await get('/api/auth/me', cookie)).json()).toMatchObject({ role: 'scanning_admin' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends the browser to the issuer from /api/auth/login and keeps only local return_to paths', async () => {
    const response = await get('/api/auth/login?return_to=/files%3Fmode%3Dall');
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.origin + location.pathname).toBe('http://localhost:3000/oidc/auth');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/callback');
    const state = location.searchParams.get('state');
    expect(await test.db.query('SELECT return_to FROM login_states WHERE state = $1', [state])).toEqual([
      { return_to: '/files?mode=all' },
    ]);

    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const other = await get(`/api/auth/login?return_to=${encodeURIComponent(evil)}`);
      const otherState = new URL(String(other.headers.location)).searchParams.get('state');
      expect(await test.db.query('SELECT return_to FROM login_states WHERE state = $1', [otherState])).toEqual([
        { return_to: null },
      ]);
    }
  });

  describe('CSRF', () => {
    it('refuses a mutating call with a session cookie and no Origin', async () => {
      const { cookie } = await signIn(test.app, 'csrf@example.org');
      const response = await test.app.inject({ method: 'POST', url: '/api/test/echo', headers: { cookie }, payload: {} });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'Forbidden' });
    });

    it('refuses a foreign Origin even with Sec-Fetch-Site same-origin', async () => {
      const { cookie } = await signIn(test.app, 'csrf@example.org');
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
        payload: {},
      });
      expect(response.statusCode).toBe(403);
      const sibling = await test.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { cookie, origin: 'http://localhost:3001' },
        payload: {},
      });
      expect(sibling.statusCode).toBe(403);
    });

    it('accepts our own Origin, or Sec-Fetch-Site same-origin without Origin', async () => {
      const { cookie, headers } = await signIn(test.app, 'csrf@example.org');
      const withOrigin = await test.app.inject({ method: 'POST', url: '/api/test/echo', headers, payload: {} });
      expect(withOrigin.statusCode).toBe(200);
      expect(withOrigin.json()).toEqual({ user: 'csrf@example.org' });
      const withFetchSite = await test.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
        payload: {},
      });
      expect(withFetchSite.statusCode).toBe(200);
    });

    it('does not apply to GET or to calls without a session cookie', async () => {
      const { cookie } = await signIn(test.app, 'csrf@example.org');
      expect((await get('/api/auth/me', cookie)).statusCode).toBe(200);
      const anonymous = await test.app.inject({ method: 'POST', url: '/api/test/echo', payload: {} });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json()).toEqual({ user: null });
    });
  });

  describe('guards', () => {
    it('requireUser / requireAdmin / requireAdminHook', async () => {
      const admin = await signIn(test.app, 'admin@example.org', { role: 'scanning_admin', isAdmin: true });
      const plain = await signIn(test.app, 'plain@example.org', { role: 'standard_user' });
      expect((await get('/api/test/user')).statusCode).toBe(401);
      expect((await get('/api/test/user', plain.cookie)).statusCode).toBe(200);
      expect((await get('/api/test/admin', plain.cookie)).json()).toEqual({ detail: 'Forbidden' });
      expect((await get('/api/test/admin', admin.cookie)).statusCode).toBe(200);
      expect((await get('/api/test/admin-hook', plain.cookie)).statusCode).toBe(403);
      expect((await get('/api/test/admin-hook')).statusCode).toBe(401);
      expect((await get('/api/test/admin-hook', admin.cookie)).statusCode).toBe(200);
    });

    it('requireCongregationAccess: admin any, coordinator only its own, others none', async () => {
      const admin = await signIn(test.app, 'admin@example.org', { role: 'scanning_admin', isAdmin: true });
      const coordinator = await signIn(test.app, 'coord-a@example.org', {
        role: 'study_helper_coordinator',
        congregationId: congregationA,
      });
      const lost = await signIn(test.app, 'coord-none@example.org', { role: 'study_helper_coordinator', congregationId: null });
      const member = await signIn(test.app, 'member@example.org', { role: 'standard_user', congregationId: congregationA });
      const status = async (id: string, cookie?: string) => (await get(`/api/test/congregations/${id}`, cookie)).statusCode;
      expect(await status(congregationA, admin.cookie)).toBe(200);
      expect(await status(congregationB, admin.cookie)).toBe(200);
      expect(await status(congregationA, coordinator.cookie)).toBe(200);
      expect(await status(congregationB, coordinator.cookie)).toBe(403);
      expect(await status(congregationA, lost.cookie)).toBe(403);
      expect(await status(congregationA, member.cookie)).toBe(403);
      expect(await status(congregationA)).toBe(401);
    });

    it('congregationScope: null for admins, own congregation for coordinators', async () => {
      const admin = await signIn(test.app, 'admin@example.org', { role: 'scanning_admin', isAdmin: true });
      const coordinator = await signIn(test.app, 'coord-a@example.org');
      const plain = await signIn(test.app, 'plain@example.org');
      expect((await get('/api/test/scope', admin.cookie)).json()).toEqual({ scope: null });
      expect((await get('/api/test/scope', coordinator.cookie)).json()).toEqual({ scope: congregationA });
      expect((await get('/api/test/scope', plain.cookie)).statusCode).toBe(403);
    });
  });
});

describe('session cookie on an https PUBLIC_URL', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example.org' } });
  }, 30_000);

  afterAll(async () => {
    await test?.close();
  });

  it('uses a Secure __Host- cookie and checks Origin against the https origin', async () => {
    const { cookie, headers } = await signIn(test.app, 'secure@example.org', { role: 'scanning_admin', isAdmin: true });
    expect(cookie).toMatch(/^__Host-session=/);
    expect((await test.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(200);
    const viewAs = await test.app.inject({ method: 'POST', url: '/api/auth/view-as', headers, payload: { congregation: null } });
    expect(viewAs.statusCode).toBe(200);
    const logout = await test.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
    const cleared = String(logout.headers['set-cookie']);
    expect(cleared).toMatch(/^__Host-session=;/);
    expect(cleared).toMatch(/Secure/);
    expect(cleared).toMatch(/HttpOnly/);
    expect(cleared).toMatch(/SameSite=Lax/);
  });
});

describe('GET /api/auth/callback error paths', () => {
  let test: TestApp;

  beforeAll(async () => {
    // An issuer that refuses every code, as an external one would for a forged callback.
    const { SignInError } = await import('../oidc-client.js');
    test = await createTestApp({
      oidcClient: {
        start: async () => ({ checks: { state: 's', nonce: 'n', codeVerifier: 'v' }, url: new URL('https://issuer.example/auth') }),
        finish: async () => {
          throw new SignInError('The e-mail address is not verified');
        },
      },
    });
  }, 30_000);

  afterAll(async () => {
    await test?.close();
  });

  // From the browser that started the sign-in: its binding cookie holds the state.
  const callback = (query: string) =>
    test.app.inject({
      method: 'GET',
      url: `/api/auth/callback?${query}`,
      cookies: { sign_in: new URLSearchParams(query).get('state') ?? '' },
    });
  const pending = (state: string) =>
    test.db.query(`INSERT INTO login_states (state, code_verifier, nonce) VALUES ($1, 'v', 'n')`, [state]);

  it('answers 401 when the issuer response does not check out, and uses the state only once', async () => {
    await pending('state-1');
    const response = await callback('code=x&state=state-1');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Sign-in failed' });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await test.db.query(`SELECT 1 FROM login_states WHERE state = 'state-1'`)).toEqual([]);
  });

  it('goes back to / when the issuer reports an error (user cancelled)', async () => {
    await pending('state-2');
    const response = await callback('error=access_denied&state=state-2');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });

  it('forgets sign-ins older than 15 minutes', async () => {
    await test.db.query(
      `INSERT INTO login_states (state, code_verifier, nonce, created_at) VALUES ('old', 'v', 'n', now() - interval '16 minutes')`,
    );
    const response = await callback('code=x&state=old');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });

  it('answers 400 without a state', async () => {
    expect((await callback('code=x')).json()).toEqual({ detail: 'Missing state' });
  });
});
