// The real sign-in, end to end over HTTP: portal -> embedded OpenID provider -> sign-in page
// -> back to the portal with a session cookie, then "about me" and log out.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../server/app.js';
import { createOidcClient } from '../../../server/auth/oidc-client.js';
import { providerSecrets } from '../../../server/auth/provider-storage.js';
import { saveUser } from '../../../server/auth/users.js';
import { MAX_FAILURES } from '../../../server/auth/sign-in-throttle.js';
import { CookieJar } from '../../../tests/helpers/cookie-jar.js';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** A browser: keeps cookies and follows redirects, recording each hop. */
function browser(base: string) {
  const jar = new CookieJar();
  const hops: string[] = [];
  const request = async (url: string, init: RequestInit = {}, follow = true): Promise<Response> => {
    let target = new URL(url, base);
    let options = init;
    for (let hop = 0; hop < 15; hop += 1) {
      hops.push(`${options.method ?? 'GET'} ${target.pathname}`);
      const headers = new Headers(options.headers);
      const cookie = jar.header(target.pathname);
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(target, { ...options, headers, redirect: 'manual' });
      jar.storeFrom(response);
      const location = response.headers.get('location');
      if (!follow || response.status < 300 || response.status >= 400 || location === null) return response;
      await response.arrayBuffer();
      target = new URL(location, target);
      options = {};
    }
    throw new Error(`Too many redirects: ${hops.join(' -> ')}`);
  };
  return { jar, hops, request };
}

describe('sign-in with the embedded OpenID provider', () => {
  let test: TestApp;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    test = await createTestApp({ env: { PUBLIC_URL: base, ADMIN_EMAILS: 'boss@example.org' } });
    await saveUser(test.db, { email: 'Helper@Example.org', password: 'correct horse' });
    await saveUser(test.db, { email: 'boss@example.org', password: 'boss-pass' });
    await test.app.listen({ port, host: '127.0.0.1' });
  }, 30_000);

  afterAll(async () => {
    await test?.close();
  });

  async function openSignInPage(b: ReturnType<typeof browser>, returnTo?: string) {
    const page = await b.request(`/api/auth/login${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    expect(action).toMatch(/^\/oidc\/interaction\/[\w-]+\/login$/);
    return { html, action: action as string };
  }

  it('signs in with e-mail and password, lands on / with a session, and /api/auth/me answers', async () => {
    const b = browser(base);
    const { html, action } = await openSignInPage(b);
    expect(html).toContain('Sign in');
    expect(b.hops.slice(0, 3)).toEqual(['GET /api/auth/login', 'GET /oidc/auth', expect.stringMatching(/^GET \/oidc\/interaction\//)]);

    const landed = await b.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'helper@example.org', password: 'correct horse' }).toString(),
    });
    expect(b.hops).toContain('GET /api/auth/callback');
    expect(b.hops.at(-1)).toBe('GET /');
    await landed.arrayBuffer();
    expect(b.jar.get('session')).toBeDefined();

    const me = await b.request('/api/auth/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ email: 'helper@example.org', role: 'standard_user', congregation: '', is_admin: false });
  }, 30_000);

  it('sets an httpOnly SameSite=Lax session cookie with an expiry', async () => {
    const b = browser(base);
    const { action } = await openSignInPage(b);
    const response = await b.request(
      action,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'helper@example.org', password: 'correct horse' }).toString(),
      },
      false,
    );
    // Follow by hand up to the callback to look at its Set-Cookie.
    let location = response.headers.get('location') as string;
    let callback: Response | undefined;
    for (let hop = 0; hop < 5 && callback === undefined; hop += 1) {
      const next = await b.request(location, {}, false);
      if (new URL(location, base).pathname === '/api/auth/callback') callback = next;
      else location = next.headers.get('location') as string;
    }
    expect(callback?.status).toBe(302);
    expect(callback?.headers.get('location')).toBe('/');
    const cookie = callback?.headers.getSetCookie().find((line) => line.startsWith('session=')) ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Expires=/i);
    expect(cookie).not.toMatch(/Secure/i);
  }, 30_000);

  it('refuses a wrong password and stays on the sign-in page', async () => {
    const b = browser(base);
    const { action } = await openSignInPage(b);
    const response = await b.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'helper@example.org', password: 'wrong' }).toString(),
    });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('Wrong e-mail or password.');
    expect(b.jar.get('session')).toBeUndefined();
  }, 30_000);

  it(`slows an e-mail's sign-in after ${MAX_FAILURES} wrong passwords; after the wait the right one signs in`, async () => {
    await saveUser(test.db, { email: 'guessed@example.org', password: 'right-pass' });
    const attempt = async (email: string, password: string) => {
      const b = browser(base);
      const { action } = await openSignInPage(b);
      const started = Date.now();
      const response = await b.request(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
      return { status: response.status, html: await response.text(), session: b.jar.get('session'), ms: Date.now() - started };
    };

    // A success in between starts this address's count again.
    for (let i = 0; i < MAX_FAILURES - 1; i++) expect((await attempt('guessed@example.org', 'wrong')).status).toBe(401);
    expect((await attempt('guessed@example.org', 'right-pass')).session).toBeDefined();
    for (let i = 0; i < MAX_FAILURES + 2; i++) expect((await attempt('Guessed@Example.org', `wrong-${i}`)).status).toBe(401);

    // Seven failures: a wait of 1 s, then the right password signs in (never a refusal).
    const slowed = await attempt('guessed@example.org', 'right-pass');
    expect(slowed.session).toBeDefined();
    expect(slowed.ms).toBeGreaterThanOrEqual(1000);
    // Another account is not slowed by it.
    const other = await attempt('helper@example.org', 'correct horse');
    expect(other.session).toBeDefined();
    expect(other.ms).toBeLessThan(1000);
  }, 60_000);

  it('makes ADMIN_EMAILS admins, honours return_to, and asks for the password again after log out', async () => {
    const b = browser(base);
    const first = await openSignInPage(b, '/admin/congregations');
    await b.request(first.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'boss@example.org', password: 'boss-pass' }).toString(),
    });
    expect(b.hops.at(-1)).toBe('GET /admin/congregations');
    const me = await b.request('/api/auth/me');
    expect(await me.json()).toEqual({ email: 'boss@example.org', role: 'scanning_admin', congregation: '', is_admin: true });

    const out = await b.request('/api/auth/logout', { method: 'POST', headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' }, body: '' }, false);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect((await b.request('/api/auth/me')).status).toBe(401);

    // No silent sign-in from the provider's own session: the password page comes back.
    await openSignInPage(b);
  }, 30_000);

  it('goes back to / when the user cancels on the sign-in page', async () => {
    const b = browser(base);
    const { html } = await openSignInPage(b);
    const cancel = /<form class="cancel" method="post" action="([^"]+)"/.exec(html)?.[1] as string;
    await b.request(cancel, { method: 'POST' });
    expect(b.hops).toContain('GET /api/auth/callback');
    expect(b.hops.at(-1)).toBe('GET /');
    expect(b.jar.get('session')).toBeUndefined();
  }, 30_000);

  it('works as an external issuer: openid-client over real HTTP (OIDC_ISSUER path)', async () => {
    // What a portal configured with OIDC_ISSUER does: discovery, token and keys over the
    // network with plain fetch, allowInsecureRequests for the http issuer.
    const client = createOidcClient({
      issuer: `${base}/oidc`,
      clientId: 'portal',
      clientSecret: (await providerSecrets(test.db)).clientSecret,
      redirectUri: `${base}/api/auth/callback`,
    });
    const { checks, url } = await client.start();
    const b = browser(base);
    const page = await b.request(url.href);
    const action = /<form method="post" action="([^"]+)"/.exec(await page.text())?.[1] as string;
    let response = await b.request(
      action,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'helper@example.org', password: 'correct horse' }).toString(),
      },
      false,
    );
    let location = new URL(response.headers.get('location') as string, base);
    while (location.pathname !== '/api/auth/callback') {
      response = await b.request(location.href, {}, false);
      location = new URL(response.headers.get('location') as string, base);
    }
    expect(await client.finish(location, checks)).toMatchObject({ email: 'helper@example.org' });
    // The same code cannot be redeemed twice.
    await expect(client.finish(location, checks)).rejects.toThrow('could not be completed');
  }, 30_000);

  it('rejects a replayed or unknown callback state', async () => {
    const response = await fetch(`${base}/api/auth/callback?code=abc&state=not-a-real-state`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.getSetCookie().some((line) => line.startsWith('session='))).toBe(false);
  });

  it('answers a NUL in the sign-in form as bad input (400), and an overlong or control-character value with the form again', async () => {
    const post = async (fields: Record<string, string>) => {
      const b = browser(base);
      const { action } = await openSignInPage(b);
      return b.request(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    };
    const nul = await post({ email: 'a\u0000b@example.org', password: 'x' });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ detail: { error_type: 'VALIDATION_ERROR', message: 'body.email must not contain NUL characters or lone surrogates' } });
    for (const fields of [{ email: 'a\u0007b@example.org', password: 'x' }, { email: 'helper@example.org', password: 'p'.repeat(2000) }]) {
      const response = await post(fields);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('Wrong e-mail or password.');
    }
  }, 30_000);

  it("answers NUL in the provider's own form bodies with 400 invalid_request, not a 5xx", async () => {
    const { clientSecret } = await providerSecrets(test.db);
    for (const body of [
      `grant_type=authorization_code&code=a%00b&redirect_uri=${base}/api/auth/callback&client_id=portal&client_secret=${clientSecret}&code_verifier=v`,
      'grant_type=authorization_code&code=x&client_id=por%00tal&client_secret=x',
      'response_type=code&client_id=portal&scope=openid&state=a%00b&code_challenge=x&code_challenge_method=S256',
    ]) {
      const url = body.startsWith('response_type') ? `${base}/oidc/auth` : `${base}/oidc/token`;
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
      expect(response.status, body).toBeLessThan(500);
      if (url.endsWith('/token')) expect(await response.json()).toMatchObject({ error: expect.stringMatching(/^invalid_/) });
    }
  });

  it("gives the sign-in provider's JSON answers the app's security headers", async () => {
    const response = await fetch(`${base}/oidc/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    // Over http, no HSTS (browsers ignore it there; see the https test of the app).
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('the embedded provider shared by two server processes on one database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ db: first.db });
    await saveUser(first.db, { email: 'roaming@example.org', password: 'pw-roaming' });
  }, 30_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('finishes on one process a sign-in started on the other', async () => {
    const jar = new CookieJar();
    const apps = [first, second];
    let turn = 0;
    // Each request goes to the other process, like a load balancer without sticky sessions.
    const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
      const target = new URL(url, 'http://localhost:3000');
      const app = (apps[turn++ % 2] as TestApp).app;
      const response = await app.inject({
        method,
        url: target.pathname + target.search,
        headers: {
          cookie: jar.header(target.pathname),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        payload: form ? new URLSearchParams(form).toString() : undefined,
      });
      jar.store(response.headers['set-cookie'] as string | string[] | undefined);
      return response;
    };

    let response = await send('GET', '/api/auth/login');
    while (response.statusCode >= 300 && response.statusCode < 400) {
      response = await send('GET', String(response.headers.location));
    }
    const action = /<form method="post" action="([^"]+)"/.exec(response.body)?.[1] as string;
    expect(action).toBeDefined();
    response = await send('POST', action, { email: 'roaming@example.org', password: 'pw-roaming' });
    const visited: string[] = [];
    while (response.statusCode >= 300 && response.statusCode < 400) {
      const location = String(response.headers.location);
      visited.push(new URL(location, 'http://localhost:3000').pathname);
      if (location === '/') break;
      response = await send('GET', location);
    }
    expect(visited).toContain('/api/auth/callback');
    expect(visited.at(-1)).toBe('/');
    const me = await second.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: jar.header('/api') } });
    expect(me.json()).toMatchObject({ email: 'roaming@example.org' });
  }, 30_000);
});
