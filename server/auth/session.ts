// Puts the caller on `request.user` for every /api request, refuses cross-site mutations
// (CSRF) and exports the guards route handlers use to enforce roles on the server.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { forbidden, notAuthenticated } from '../http-error.js';
import { loadSessionUser, type SessionUser } from './session-store.js';

export type { SessionUser } from './session-store.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, or null when anonymous (only looked up for /api requests). */
    user: SessionUser | null;
  }
}

export interface SessionPluginOptions {
  config: Pick<Config, 'publicUrl' | 'sessionTtlHours'>;
  db: Database;
}

/** `__Host-` pins the cookie to this exact origin when it can be Secure (https). */
export function sessionCookieName(publicUrl: string): string {
  return isHttps(publicUrl) ? '__Host-session' : 'session';
}

export function isHttps(publicUrl: string): boolean {
  return new URL(publicUrl).protocol === 'https:';
}

export function sessionCookieOptions(publicUrl: string, expiresAt: Date) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: isHttps(publicUrl),
    expires: expiresAt,
  };
}

export function readSessionToken(request: FastifyRequest, publicUrl: string): string | undefined {
  return request.cookies[sessionCookieName(publicUrl)];
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.clearCookie(sessionCookieName(publicUrl), { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(publicUrl) });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A mutating /api call that carries our session cookie must come from our own origin:
 * Origin equal to PUBLIC_URL's origin, or, when a browser sends no Origin, Sec-Fetch-Site
 * "same-origin". SameSite=Lax already stops most cross-site posts; this closes the rest
 * (sibling subdomains, old browsers).
 */
export function isSameOriginRequest(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin === publicOrigin;
  return request.headers['sec-fetch-site'] === 'same-origin';
}

/**
 * Whether a GET that changes state (a download marking a packet printed or a return file
 * downloaded) comes from the portal itself: a link on another site must not trigger it under
 * SameSite=Lax. Sec-Fetch-Site "same-origin" (the app) or "none" (typed, bookmarked); without
 * it, an Origin equal to PUBLIC_URL's. Neither: not changed (old clients just download).
 */
export function isSameOriginGet(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin === new URL(publicUrl).origin;
}

const sessionPluginImpl: FastifyPluginAsync<SessionPluginOptions> = async (app, { config, db }) => {
  const publicOrigin = new URL(config.publicUrl).origin;
  const cookieName = sessionCookieName(config.publicUrl);
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[cookieName];
    if (token === undefined) return;
    if (!SAFE_METHODS.has(request.method) && !isSameOriginRequest(request, publicOrigin)) {
      request.log.warn({ origin: request.headers.origin }, 'cross-origin request with a session cookie refused');
      throw forbidden();
    }
    request.user = await loadSessionUser(db, token);
  });
};

// Same effect as fastify-plugin: the hook and decoration apply to the whole app, not only
// inside this plugin's encapsulation context.
export const sessionPlugin = Object.assign(sessionPluginImpl, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'session',
});

// Guards ----------------------------------------------------------------------------------
// Call them at the top of a handler; they return the caller or throw 401/403 in the spec's
// {"detail": ...} shape. The *Hook variants fit `preHandler` in a route's options.

export function requireUser(request: FastifyRequest): SessionUser {
  if (request.user === null) throw notAuthenticated();
  return request.user;
}

/** scanning_admin only (an admin viewing as a congregation acts as its coordinator). */
export function requireAdmin(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (user.role !== 'scanning_admin') throw forbidden();
  return user;
}

/** is_admin only: the View As switch, which must keep working while viewing as someone. */
export function requireIsAdmin(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!user.is_admin) throw forbidden();
  return user;
}

/** Admin: any congregation. Coordinator: only its own. Everyone else: 403. */
export function requireCongregationAccess(request: FastifyRequest, congregationId: string | null | undefined): SessionUser {
  const user = requireUser(request);
  if (user.role === 'scanning_admin') return user;
  if (
    user.role === 'study_helper_coordinator' &&
    user.congregation_id !== null &&
    congregationId !== null &&
    congregationId !== undefined &&
    congregationId === user.congregation_id
  ) {
    return user;
  }
  throw forbidden();
}

/**
 * For list endpoints: null means "all congregations" (admin); a coordinator gets its own
 * congregation id to filter by; everyone else gets 403.
 */
export function congregationScope(request: FastifyRequest): string | null {
  const user = requireUser(request);
  if (user.role === 'scanning_admin') return null;
  if (user.role === 'study_helper_coordinator' && user.congregation_id !== null) return user.congregation_id;
  throw forbidden();
}

export const requireUserHook: preHandlerAsyncHookHandler = async (request) => {
  requireUser(request);
};

export const requireAdminHook: preHandlerAsyncHookHandler = async (request) => {
  requireAdmin(request);
};
