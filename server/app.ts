// Builds the HTTP server: logging with request ids, cookies, sessions and CSRF, one error
// handler for the spec's {"detail": ...} shapes, /healthz, sign-in, the route plugins given
// by the caller, and the built web app with SPA fallback.
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyPluginAsync, type FastifyReply } from 'fastify';
import { embeddedProviderPlugin, createEmbeddedProvider, injectFetch } from './auth/embedded-provider.js';
import { createOidcClient, type OidcClient } from './auth/oidc-client.js';
import { authRoutes } from './auth/routes.js';
import { sessionPlugin } from './auth/session.js';
import { BlobTooLargeError, type BlobStore } from './blob-store.js';
import type { Config } from './config.js';
import { RowCountError, SQLSTATE, sqlState, type Database } from './db/database.js';
import { HttpError, defaultDetail } from './http-error.js';
import { registerJsonBodyParser } from './json-body.js';
import { closeSilentBodies, HEADERS_TIMEOUT_MS } from './body-timeout.js';
import { warnOfForwardedRequests } from './forwarded-warning.js';
import { loggerOptions, requestId } from './logger.js';
import { PROJECT_ROOT } from './project-root.js';
import { securityHeaders } from './security-headers.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    blobStore: BlobStore;
  }
}

/** A plugin, or a plugin with its options. Route plugins reach app.db/app.blobStore/app.config. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AppPlugin = FastifyPluginAsync<any> | { plugin: FastifyPluginAsync<any>; options?: Record<string, unknown> };

export interface BuildAppOptions {
  config: Config;
  db: Database;
  blobStore: BlobStore;
  /**
   * Registered in order, before any of the app's own routes, so a plugin with an onRoute
   * hook (the contract plugin) sees every route, /healthz and /api/auth/* included.
   */
  plugins?: AppPlugin[];
  /** Folder of the built web app; defaults to <repo>/dist; null disables static serving. */
  webRoot?: string | null;
  /** Replaces the OpenID client (tests of the callback's error paths). */
  oidcClient?: OidcClient;
}

export const DEFAULT_WEB_ROOT = path.join(PROJECT_ROOT, 'dist');
const HEALTH_TIMEOUT_MS = 2000;

/**
 * For every HTML page (the web app, the sign-in and sign-in problem pages): scripts, data and
 * forms from this server only, so injected markup could neither run a script nor send anything
 * elsewhere. Inline styles stay allowed: PrimeReact adds <style> elements at run time and the
 * sign-in pages carry their own. data: and blob: images are PrimeReact's icons and the page
 * previews made in the browser.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db, blobStore } = options;
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    genReqId: requestId,
    // request.ip is the client's behind that many proxies (sign-in limits count per address).
    trustProxy: trustedProxies(config.trustProxyHops),
    // Routes like /api/uploads/ and /api/uploads are the same call.
    routerOptions: { ignoreTrailingSlash: true },
    // A client that dribbles its headers is cut off (bodies: closeSilentBodies below).
    http: { headersTimeout: HEADERS_TIMEOUT_MS },
    // A URL Fastify cannot decode (%ZZ) is bad input like any other, in the spec's shape.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ code: error.code }, 'request refused before routing');
      return (reply as unknown as FastifyReply).code(400).type('application/json; charset=utf-8').send(validationDetail('The URL is malformed'));
    },
  });

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('blobStore', blobStore);

  const headers = securityHeaders(config.publicUrl);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.headers(headers);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  });

  // Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) is refused at the edge, for
  // every route: in the URL (path and query) before anything runs, in JSON bodies once parsed.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.includes('%00')) return reply.code(400).send(validationDetail('The URL must not contain NUL characters'));
  });
  app.addHook('preValidation', async (request, reply) => {
    const where = unstorableText(request.body, 'body');
    if (where !== null) return reply.code(400).send(validationDetail(`${where} must not contain NUL characters or lone surrogates`));
  });

  registerJsonBodyParser(app);
  closeSilentBodies(app, config.bodyTimeoutSeconds * 1000);
  if (config.trustProxyHops === undefined) warnOfForwardedRequests(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler(options.webRoot === undefined ? DEFAULT_WEB_ROOT : options.webRoot));

  await app.register(cookie);
  await app.register(sessionPlugin, { config, db });

  for (const entry of options.plugins ?? []) {
    if (typeof entry === 'function') await app.register(entry);
    else await app.register(entry.plugin, entry.options ?? {});
  }

  app.get('/healthz', async (request, reply) => {
    try {
      await withTimeout(db.query('SELECT 1'), HEALTH_TIMEOUT_MS);
      return { status: 'ok', database: 'ok' };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'degraded', database: 'unreachable' });
    }
  });

  let oidc = options.oidcClient;
  const redirectUri = `${config.publicUrl}/api/auth/callback`;
  if (config.oidc !== undefined) {
    oidc ??= createOidcClient({ ...config.oidc, redirectUri });
  } else {
    const embedded = await createEmbeddedProvider({ publicUrl: config.publicUrl, db });
    await app.register(embeddedProviderPlugin, { embedded, db, publicUrl: config.publicUrl });
    oidc ??= createOidcClient({
      issuer: embedded.issuer,
      clientId: embedded.clientId,
      clientSecret: embedded.clientSecret,
      redirectUri,
      fetch: injectFetch(app, embedded.issuer),
    });
  }
  await app.register(authRoutes, { config, db, oidc });

  const webRoot = options.webRoot === undefined ? DEFAULT_WEB_ROOT : options.webRoot;
  if (webRoot !== null && existsSync(path.join(webRoot, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webRoot,
      index: 'index.html',
      setHeaders: (reply, filePath) => {
        // Vite puts content-hashed files under assets/: safe to cache for good. index.html
        // names the current ones, so it is always revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (path.basename(filePath) === 'index.html') {
          reply.header('cache-control', 'no-cache');
        }
      },
    });
  }

  return app;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The nearest `hops` proxies are trusted to say who their client is (X-Forwarded-For). */
function trustedProxies(hops: number | undefined): boolean | ((address: string, hop: number) => boolean) {
  if (hops === undefined || hops === 0) return false;
  return (_address, hop) => hop < hops;
}

/** The spec's 400 answer: {"detail": {"error_type": "VALIDATION_ERROR", "message": ...}}. */
export function validationDetail(message: string) {
  return { detail: { error_type: 'VALIDATION_ERROR', message } };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where in a parsed JSON value a string or key holds NUL or a lone surrogate; null when nowhere. */
export function unstorableText(value: unknown, where: string): string | null {
  if (typeof value === 'string') return value.includes('\0') || LONE_SURROGATE.test(value) ? where : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const at = `${where}.${key}`;
    if (unstorableText(key, at) !== null) return at;
    const found = unstorableText(item, at);
    if (found !== null) return found;
  }
  return null;
}

/** Maps any error to a status and a body that never carries stack traces or SQL. */
export function errorResponse(error: unknown): { status: number; body: { detail: unknown } } {
  if (error instanceof HttpError) return { status: error.statusCode, body: { detail: error.detail } };
  if (error instanceof BlobTooLargeError) return { status: 413, body: { detail: 'File too large' } };
  if (error instanceof RowCountError && error.actual === 0) {
    // one() found nothing: a bug in the caller, not the client's fault.
    return { status: 500, body: { detail: defaultDetail(500) } };
  }
  switch (sqlState(error)) {
    case SQLSTATE.uniqueViolation:
      return { status: 409, body: { detail: 'Conflict' } };
    case SQLSTATE.foreignKeyViolation:
      return { status: 409, body: { detail: 'Conflict with related data' } };
    case SQLSTATE.checkViolation:
    case SQLSTATE.notNullViolation:
    case SQLSTATE.invalidTextRepresentation:
    case SQLSTATE.invalidDatetimeFormat:
    case SQLSTATE.datetimeFieldOverflow:
    case SQLSTATE.numericValueOutOfRange:
    case SQLSTATE.characterNotInRepertoire:
    case SQLSTATE.untranslatableCharacter:
    case SQLSTATE.stringDataRightTruncation:
      return { status: 400, body: { detail: 'Invalid input' } };
    default:
      break;
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation !== undefined) {
    return { status: 400, body: { detail: fastifyError.message ?? defaultDetail(400) } };
  }
  // Client errors of Fastify and its plugins (bad JSON, unsupported media type, body too
  // large, multipart limits) and http-errors marked safe to show (`expose`).
  const status = fastifyError.statusCode;
  const exposable =
    (typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_')) ||
    (error as { expose?: unknown }).expose === true;
  if (typeof status === 'number' && status >= 400 && status < 500 && exposable) {
    // Bad input (invalid JSON, a wrong content type) is a validation error in the spec's shape.
    if (status === 400) return { status, body: validationDetail(fastifyError.message ?? defaultDetail(400)) };
    return { status, body: { detail: fastifyError.message ?? defaultDetail(status) } };
  }
  return { status: 500, body: { detail: defaultDetail(500) } };
}

function errorHandler(this: FastifyInstance, error: unknown, request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) {
  const { status, body } = errorResponse(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status, detail: body.detail }, 'request refused');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

function notFoundHandler(webRoot: string | null) {
  const spa = webRoot !== null && existsSync(path.join(webRoot, 'index.html'));
  return async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const url = request.url;
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
    if (spa && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      // Client-side routes (/files, /students/...) all load the web app.
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').sendFile('index.html', webRoot as string);
    }
    return reply.code(404).send({ detail: 'Not Found' });
  };
}
