// /api/auth/*: sign-in through OpenID Connect, sign-out, "about me" and View As.
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { badRequest, notFound } from '../http-error.js';
import { SignInError, type OidcClient } from './oidc-client.js';
import {
  clearSessionCookie,
  isHttps,
  readSessionToken,
  requireIsAdmin,
  requireUser,
  sessionCookieName,
  sessionCookieOptions,
} from './session.js';
import {
  createSession,
  deleteExpiredSessions,
  deleteSession,
  setActingCongregation,
  type SessionUser,
} from './session-store.js';
import { renderLogoutPage, renderSignInProblemPage } from './sign-in-page.js';
import { TOO_MANY_STARTS_MESSAGE, tooManySignInStarts } from './sign-in-throttle.js';
import { userForSignIn } from './users.js';

export interface AuthRoutesOptions {
  config: Pick<Config, 'publicUrl' | 'sessionTtlHours' | 'adminEmails'>;
  db: Database;
  oidc: OidcClient;
}

const LOGOUT_PATH = '/api/auth/logout';
/** How long a started sign-in may take before its state is forgotten. */
const LOGIN_STATE_TTL_MINUTES = 15;
const OTHER_BROWSER_MESSAGE =
  'This sign-in was not started in this browser, or it took too long. Nobody was signed in. Please sign in again.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The spec's "current user (about-me)": congregation is "" when there is none. */
export function aboutMe(user: SessionUser) {
  return {
    email: user.email,
    role: user.role,
    congregation: user.congregation_id ?? '',
    is_admin: user.is_admin,
  };
}

/** A path on this origin in plain URL characters: no scheme, host, spaces, controls or backslashes. */
const PLAIN_PATH = /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@/%?]*$/;

/**
 * Only plain same-origin paths: anything else would make the sign-in an open redirect (or,
 * with control characters, an invalid Location header). Percent-encoded variants are checked
 * decoded too, so "/%2F/evil.example" or "/%09/evil.example" are refused as well.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000 || !PLAIN_PATH.test(value)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  if (/[\p{Cc}\p{Cf}\p{Z}\s\\]/u.test(decoded) || decoded.startsWith('//')) return null;
  return value;
}

/**
 * The cookie that ties a started sign-in to its browser. `__Host-` on https: no sibling
 * subdomain can plant one. SameSite=Lax still comes along on the issuer's top-level redirect.
 */
export function signInCookieName(publicUrl: string): string {
  return isHttps(publicUrl) ? '__Host-sign_in' : 'sign_in';
}

function signInCookieOptions(publicUrl: string, minutes: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: isHttps(publicUrl), maxAge: minutes * 60 };
}

export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, { config, db, oidc }) => {
  app.get<{ Querystring: { return_to?: string } }>('/api/auth/login', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Housekeeping rides on sign-ins: both deletes use an index and touch few rows.
    await db.query(`DELETE FROM login_states WHERE created_at < now() - interval '${LOGIN_STATE_TTL_MINUTES} minutes'`);
    await deleteExpiredSessions(db);
    if (await tooManySignInStarts(db, request.ip)) {
      request.log.warn('sign-in start refused: too many from this address');
      return reply.code(429).header('retry-after', '60').send({ detail: TOO_MANY_STARTS_MESSAGE });
    }
    const { checks, url } = await oidc.start();
    await db.query(
      'INSERT INTO login_states (state, code_verifier, nonce, return_to, client_address) VALUES ($1, $2, $3, $4, $5)',
      [checks.state, checks.codeVerifier, checks.nonce, safeReturnPath(request.query.return_to), request.ip],
    );
    // Binds the sign-in to this browser: the callback finishes only where the cookie is.
    reply.setCookie(signInCookieName(config.publicUrl), checks.state, signInCookieOptions(config.publicUrl, LOGIN_STATE_TTL_MINUTES));
    return reply.redirect(url.href, 302);
  });

  app.get<{ Querystring: { state?: string; error?: string } }>('/api/auth/callback', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { state, error } = request.query;
    if (typeof state !== 'string' || state === '') {
      if (error !== undefined) return reply.redirect('/', 302);
      throw badRequest('Missing state');
    }
    // One use only: deleting the row is what makes a replayed callback fail.
    const pending = await db.maybeOne<{ code_verifier: string; nonce: string; return_to: string | null }>(
      `DELETE FROM login_states
       WHERE state = $1 AND created_at >= now() - interval '${LOGIN_STATE_TTL_MINUTES} minutes'
       RETURNING code_verifier, nonce, return_to`,
      [state],
    );
    if (pending === null) {
      request.log.warn('sign-in callback with an unknown or expired state');
      return reply.redirect('/', 302);
    }
    // A sign-in link carried to another browser (login CSRF: the victim would be signed in
    // as whoever started it) is refused; the state was used up above either way.
    if (request.cookies[signInCookieName(config.publicUrl)] !== state) {
      request.log.warn('sign-in callback in a browser that did not start this sign-in');
      return reply.code(400).type('text/html; charset=utf-8').send(renderSignInProblemPage(OTHER_BROWSER_MESSAGE));
    }
    // The user cancelled on the issuer's page.
    if (error !== undefined) return reply.redirect('/', 302);

    let email: string;
    try {
      ({ email } = await oidc.finish(new URL(request.url, config.publicUrl), {
        state,
        nonce: pending.nonce,
        codeVerifier: pending.code_verifier,
      }));
    } catch (failure) {
      if (failure instanceof SignInError) {
        request.log.warn({ err: failure, cause: failure.cause }, 'sign-in failed');
        return reply.code(401).send({ detail: 'Sign-in failed' });
      }
      throw failure;
    }
    const user = await userForSignIn(db, email, config.adminEmails);
    const session = await createSession(db, user.id, config.sessionTtlHours);
    request.log.info({ user_id: user.id }, 'signed in');
    reply.setCookie(sessionCookieName(config.publicUrl), session.token, sessionCookieOptions(config.publicUrl, session.expiresAt));
    return reply.redirect(pending.return_to ?? '/', 302);
  });

  app.get('/api/auth/logout', async (_request, reply) => {
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return renderLogoutPage(LOGOUT_PATH);
  });

  // The Log Out form posts no fields; its (empty) form body is accepted and ignored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, undefined));
  // A POST, so it passes the session plugin's same-origin check like every state change.
  app.post('/api/auth/logout', async (request, reply) => {
    const token = readSessionToken(request, config.publicUrl);
    if (token !== undefined) await deleteSession(db, token);
    clearSessionCookie(reply, config.publicUrl);
    reply.header('cache-control', 'no-store');
    return reply.redirect('/', 303);
  });

  app.get('/api/auth/me', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return aboutMe(requireUser(request));
  });

  app.post<{ Body: { congregation?: unknown } | null }>('/api/auth/view-as', async (request) => {
    const user = requireIsAdmin(request);
    const body = request.body;
    if (typeof body !== 'object' || body === null || !('congregation' in body)) {
      throw badRequest('Body must be {"congregation": id or null}');
    }
    const congregation = body.congregation;
    if (congregation !== null && typeof congregation !== 'string') {
      throw badRequest('congregation must be an id or null');
    }
    if (congregation !== null) {
      const found = UUID.test(congregation)
        ? await db.maybeOne('SELECT id FROM congregations WHERE id = $1', [congregation])
        : null;
      if (found === null) throw notFound('Congregation not found');
    }
    await setActingCongregation(db, user.session_id, congregation);
    request.log.info({ user_id: user.id, congregation }, congregation === null ? 'view as ended' : 'view as started');
    const acting = congregation;
    return aboutMe({
      ...user,
      acting_congregation_id: acting,
      role: acting === null ? user.own_role : 'study_helper_coordinator',
      congregation_id: acting ?? user.own_congregation_id,
    });
  });
};
