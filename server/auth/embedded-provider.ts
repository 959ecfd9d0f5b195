// The default sign-in: an OpenID provider (oidc-provider, a Koa app) mounted under /oidc on
// this Fastify server, with local accounts from the users table and its own sign-in page.
// The portal signs in against it through the same openid-client code as against an external
// issuer; with OIDC_ISSUER set none of this is mounted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import Provider, { interactionPolicy, type KoaContext } from 'oidc-provider';
import type { CustomFetch } from 'openid-client';
import type { Database } from '../db/database.js';
import { securityHeaders } from '../security-headers.js';
import { verifyPassword } from './passwords.js';
import { databaseAdapterFactory, providerSecrets } from './provider-storage.js';
import { renderSignInPage } from './sign-in-page.js';
import { clearSignInFailures, recordSignInFailure, signInDelayMs } from './sign-in-throttle.js';

export const OIDC_MOUNT = '/oidc';
export const EMBEDDED_CLIENT_ID = 'portal';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Compared against when the e-mail is unknown, so both paths take as long.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export interface EmbeddedProvider {
  provider: Provider;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export async function createEmbeddedProvider(options: { publicUrl: string; db: Database }): Promise<EmbeddedProvider> {
  const { publicUrl, db } = options;
  const issuer = `${publicUrl}${OIDC_MOUNT}`;
  const { clientSecret, cookieKeys, jwks } = await providerSecrets(db);

  // Every sign-in asks for the password: without this the provider's own session would sign
  // the next person in silently after "Log Out" on a shared computer.
  const policy = interactionPolicy.base();
  policy.get('login')?.checks.add(
    new interactionPolicy.Check('portal_requires_password', 'every sign-in asks for the password', (ctx) =>
      ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
    ),
  );

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: EMBEDDED_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [`${publicUrl}/api/auth/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      if (!UUID.test(id)) return undefined;
      const user = await db.maybeOne<{ email: string }>('SELECT email FROM users WHERE id = $1', [id]);
      if (user === null) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: user.email, email_verified: true }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    interactions: {
      policy,
      url: async (_ctx: unknown, interaction: { uid: string }) => `${OIDC_MOUNT}/interaction/${interaction.uid}`,
    },
    // The portal is the only client: consent is implied, so grant openid + email directly.
    async loadExistingGrant(ctx: KoaContext) {
      const clientId = ctx.oidc.client?.clientId;
      const accountId = ctx.oidc.session.accountId;
      if (clientId === undefined || accountId === undefined) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(clientId);
      if (grantId) {
        const existing = await provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    adapter: databaseAdapterFactory(db),
    cookies: { keys: cookieKeys },
    jwks: { keys: jwks },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 1800,
      Session: 1800,
      Grant: 1800,
    },
    clientBasedCORS: () => false,
    async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
      ctx.type = 'html';
      ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign-in problem</title></head>
<body style="font-family:system-ui,sans-serif;max-width:480px;margin:60px auto;color:#1f2937">
<h1 style="color:#b91c1c;font-size:1.3rem">Sign-in problem</h1>
<p>${escapeText(out.error_description ?? out.error ?? 'The sign-in request was not valid.')}</p>
<p><a href="/" style="color:#1d4ed8">Back to the portal</a></p></body></html>`;
    },
  });
  // Requests reach the provider with PUBLIC_URL's host and scheme (set by the bridge below),
  // so every URL it builds is the public one, also behind a TLS proxy.
  provider.proxy = true;

  return { provider, issuer, clientId: EMBEDDED_CLIENT_ID, clientSecret };
}

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Makes a raw request look as if it arrived on PUBLIC_URL (see provider.proxy above). */
function asPublicRequest(req: IncomingMessage, publicUrl: URL): IncomingMessage {
  req.headers['x-forwarded-host'] = publicUrl.host;
  req.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
  return req;
}

export interface EmbeddedProviderPluginOptions {
  embedded: EmbeddedProvider;
  db: Database;
  publicUrl: string;
}

/** Mounts the provider under /oidc and serves its sign-in page. */
export const embeddedProviderPlugin: FastifyPluginAsync<EmbeddedProviderPluginOptions> = async (app, options) => {
  const { embedded, db } = options;
  const { provider } = embedded;
  const publicUrl = new URL(options.publicUrl);
  const handle = provider.callback();

  // The provider (Koa) reads request bodies itself: Fastify must leave the stream untouched.
  await app.register(async (bridge) => {
    bridge.removeAllContentTypeParsers();
    bridge.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    bridge.all(`${OIDC_MOUNT}/*`, async (request, reply) => {
      const req = request.raw as IncomingMessage & { originalUrl?: string };
      // Like an Express mount: the provider sees paths below /oidc and the mount in originalUrl.
      req.originalUrl = req.url;
      req.url = (req.url ?? '/').slice(OIDC_MOUNT.length) || '/';
      reply.hijack();
      // A hijacked reply skips the app's onSend hook: the provider's answers get its headers here.
      for (const [name, value] of Object.entries(securityHeaders(options.publicUrl))) reply.raw.setHeader(name, value);
      reply.raw.setHeader('x-request-id', request.id);
      await handle(asPublicRequest(req, publicUrl), reply.raw);
    });
  });

  await app.register(async (pages) => {
    await pages.register(formbody);

    const demoAccounts = async (): Promise<string[]> =>
      (
        await db.query<{ email: string }>(
          `SELECT email FROM users WHERE email LIKE '%@demo.local' AND password_hash IS NOT NULL ORDER BY email`,
        )
      ).map((row) => row.email);

    const page = async (uid: string, email?: string, error?: string) =>
      renderSignInPage({
        action: `${OIDC_MOUNT}/interaction/${encodeURIComponent(uid)}/login`,
        cancelAction: `${OIDC_MOUNT}/interaction/${encodeURIComponent(uid)}/abort`,
        email,
        error,
        demoAccounts: await demoAccounts(),
      });

    const details = async (raw: { req: IncomingMessage; res: ServerResponse }, uid: string) => {
      try {
        const interaction = await provider.interactionDetails(asPublicRequest(raw.req, publicUrl), raw.res);
        return interaction.uid === uid ? interaction : null;
      } catch {
        // Expired or unknown interaction (its cookie is gone): start again from the portal.
        return null;
      }
    };

    const restart = (reply: import('fastify').FastifyReply) => reply.redirect('/api/auth/login', 303);

    pages.get<{ Params: { uid: string } }>(`${OIDC_MOUNT}/interaction/:uid`, async (request, reply) => {
      const interaction = await details({ req: request.raw, res: reply.raw }, request.params.uid);
      if (interaction === null) return restart(reply);
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      return page(request.params.uid);
    });

    pages.post<{ Params: { uid: string }; Body: { email?: string; password?: string } }>(
      `${OIDC_MOUNT}/interaction/:uid/login`,
      async (request, reply) => {
        const interaction = await details({ req: request.raw, res: reply.raw }, request.params.uid);
        if (interaction === null) return restart(reply);
        const email = String(request.body?.email ?? '').trim().toLowerCase();
        const password = String(request.body?.password ?? '');
        // NUL and other control characters never make a valid e-mail (and PostgreSQL refuses
        // NUL in text); very long values would only cost hashing time.
        if (/\p{Cc}/u.test(email) || email.length > 320 || password.length > 1024) {
          reply.code(400).header('cache-control', 'no-store').type('text/html; charset=utf-8');
          return page(request.params.uid, undefined, 'Wrong e-mail or password.');
        }
        // Recent failures slow the attempt (never refuse it): the wait comes before the password check.
        const delayMs = await signInDelayMs(db, email, request.ip);
        if (delayMs > 0) {
          request.log.info({ delayMs }, 'embedded sign-in slowed: recent failed sign-ins');
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        const user = await db.maybeOne<{ id: string; password_hash: string | null }>(
          'SELECT id, password_hash FROM users WHERE email = $1',
          [email],
        );
        const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
        if (user === null || !valid) {
          request.log.info('embedded sign-in refused: wrong e-mail or password');
          // Unknown e-mails count too: whether an e-mail has an account stays hidden.
          if (email !== '') await recordSignInFailure(db, email, request.ip);
          reply.code(401).header('cache-control', 'no-store').type('text/html; charset=utf-8');
          return page(request.params.uid, email, 'Wrong e-mail or password.');
        }
        await clearSignInFailures(db, email, request.ip);
        const returnTo = await provider.interactionResult(
          asPublicRequest(request.raw, publicUrl),
          reply.raw,
          { login: { accountId: user.id } },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(returnTo, 303);
      },
    );

    pages.post<{ Params: { uid: string } }>(`${OIDC_MOUNT}/interaction/:uid/abort`, async (request, reply) => {
      const interaction = await details({ req: request.raw, res: reply.raw }, request.params.uid);
      if (interaction === null) return reply.redirect('/', 303);
      const returnTo = await provider.interactionResult(
        asPublicRequest(request.raw, publicUrl),
        reply.raw,
        { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    });
  });
};

/**
 * openid-client transport that serves requests to the embedded issuer in-process through
 * app.inject (see OidcClientOptions.fetch for why).
 */
export function injectFetch(app: FastifyInstance, issuer: string): CustomFetch {
  const issuerUrl = new URL(issuer);
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== issuerUrl.origin || !target.pathname.startsWith(issuerUrl.pathname)) {
      return fetch(url, options as RequestInit);
    }
    const body = options.body;
    let payload: string | Buffer | undefined;
    if (body instanceof URLSearchParams) payload = body.toString();
    else if (typeof body === 'string') payload = body;
    else if (body instanceof Uint8Array) payload = Buffer.from(body);
    else if (body instanceof ArrayBuffer) payload = Buffer.from(body);
    else if (body !== null && body !== undefined) throw new Error('Unsupported request body for the embedded issuer');
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: target.pathname + target.search,
      headers: { ...options.headers, host: issuerUrl.host },
      payload,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, String(item));
      else if (value !== undefined) headers.set(name, String(value));
    }
    const noBody = response.statusCode === 204 || response.statusCode === 304;
    return new Response(noBody ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
  };
}
