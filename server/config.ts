// Server settings, read once from the environment at start. Every setting has a default so
// `npm start` works with nothing configured (embedded database, embedded sign-in, ./data).
import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
}

export interface ObjectStorageSettings {
  bucket: string;
  /** Key prefix, empty or ending in "/". */
  prefix: string;
  /** AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL): another S3-compatible service, addressed path-style. */
  endpoint: string | undefined;
  /** AWS_REGION; us-east-1 when an endpoint is set without one (MinIO and most others ignore it). */
  region: string;
}

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data folder (PGlite files, blobs). */
  dataDir: string;
  /** Origin (and optional base path) users reach the portal on; no trailing slash. */
  publicUrl: string;
  /** PostgreSQL connection string; undefined means PGlite in `${dataDir}/pglite`. */
  databaseUrl: string | undefined;
  /** External OpenID Connect issuer; undefined means the embedded provider under /oidc. */
  oidc: OidcSettings | undefined;
  /** Lower-case e-mails that become scanning_admin + is_admin when they sign in. */
  adminEmails: string[];
  allowDatabaseDelete: boolean;
  sessionTtlHours: number;
  logLevel: LogLevel;
  /**
   * DEMO_DATA: true asks for the demo programme and accounts (on any database), false never makes
   * them; unset (undefined), they are made only on the embedded database's first start.
   */
  demoData: boolean | undefined;
  /** DEMO_FILES (default true): with the demo data, also the demo's files in flight (server/seed/demo-files). */
  demoFiles: boolean;
  /**
   * PIPELINE_THREADS: worker threads reading a scan's pages (undefined: the pipeline's default, 1).
   * Each costs some 80 MB while a file is read. At least 1: pages are never read on the job's
   * thread, where a hostile page would hold every request (page-pool's limits need a worker).
   */
  pipelineThreads: number | undefined;
  /**
   * TRUST_PROXY: how many reverse proxies stand in front (their X-Forwarded-For gives the client
   * address the sign-in limits count by); 0 or unset trusts none.
   */
  trustProxyHops?: number;
  /** BODY_TIMEOUT_SECONDS (default 30): how long a request body may send nothing before it is ended. */
  bodyTimeoutSeconds: number;
  /** SMTP_URL: the mail server in nodemailer's URL form; undefined: messages are recorded, not sent. */
  smtpUrl?: string;
  /**
   * BLOB_STORE=s3://BUCKET/PREFIX: stored files in S3-compatible object storage; undefined: in
   * `${dataDir}/blobs`. Credentials come from the AWS SDK's usual sources (AWS_ACCESS_KEY_ID…).
   */
  objectStorage?: ObjectStorageSettings;
  /** MAIL_FROM: the sender of the portal's messages (default: no-reply at PUBLIC_URL's host). */
  mailFrom: string;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

/** Reads and validates settings; throws one ConfigError listing every problem at once. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const port = parseInteger(text('PORT') ?? '3000', 'PORT', 0, 65535, problems);
  const host = text('HOST') ?? '0.0.0.0';
  const dataDir = path.resolve(text('DATA_DIR') ?? './data');

  const publicUrl = parseUrl(text('PUBLIC_URL') ?? `http://localhost:${port}`, 'PUBLIC_URL', problems);
  // The API, the web app and the sign-in provider are served from the root of the origin.
  if (URL.canParse(publicUrl) && new URL(publicUrl).pathname !== '/') {
    problems.push(`PUBLIC_URL must be an origin without a path, e.g. https://portal.example.org (got "${publicUrl}")`);
  }

  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  const issuer = text('OIDC_ISSUER');
  const clientId = text('OIDC_CLIENT_ID');
  const clientSecret = text('OIDC_CLIENT_SECRET');
  let oidc: OidcSettings | undefined;
  if (issuer !== undefined) {
    parseUrl(issuer, 'OIDC_ISSUER', problems);
    if (clientId === undefined) problems.push('OIDC_CLIENT_ID is required when OIDC_ISSUER is set');
    oidc = { issuer: issuer.replace(/\/+$/, ''), clientId: clientId ?? '', clientSecret };
  } else if (clientId !== undefined || clientSecret !== undefined) {
    problems.push('OIDC_CLIENT_ID / OIDC_CLIENT_SECRET are set but OIDC_ISSUER is not');
  }

  const adminEmails = (text('ADMIN_EMAILS') ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const email of adminEmails) {
    if (!email.includes('@')) problems.push(`ADMIN_EMAILS: "${email}" is not an e-mail address`);
  }

  const allowDatabaseDelete = parseBoolean(text('ALLOW_DATABASE_DELETE') ?? 'false', 'ALLOW_DATABASE_DELETE', problems);
  const demoDataText = text('DEMO_DATA');
  const demoData = demoDataText === undefined ? undefined : parseBoolean(demoDataText, 'DEMO_DATA', problems);
  const demoFiles = parseBoolean(text('DEMO_FILES') ?? 'true', 'DEMO_FILES', problems);
  const sessionTtlHours = parseNumber(text('SESSION_TTL_HOURS') ?? '12', 'SESSION_TTL_HOURS', problems);

  const threadsText = text('PIPELINE_THREADS');
  const pipelineThreads = threadsText === undefined ? undefined : parseInteger(threadsText, 'PIPELINE_THREADS', 1, 16, problems);

  const trustProxyHops = parseInteger(text('TRUST_PROXY') ?? '0', 'TRUST_PROXY', 0, 10, problems);
  const bodyTimeoutSeconds = parseInteger(text('BODY_TIMEOUT_SECONDS') ?? '30', 'BODY_TIMEOUT_SECONDS', 1, 3600, problems);

  const smtpUrl = text('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]/.test(smtpUrl)) {
    problems.push('SMTP_URL must start with smtp:// or smtps://, e.g. smtp://user:pass@mail.example.org:587');
  }
  const mailFrom = text('MAIL_FROM') ?? `Bible Study Portal <no-reply@${URL.canParse(publicUrl) ? new URL(publicUrl).hostname : 'localhost'}>`;

  const objectStorage = parseObjectStorage(text, problems);

  const logLevelText = (text('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevelText as LogLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    dataDir,
    publicUrl,
    databaseUrl,
    oidc,
    adminEmails,
    allowDatabaseDelete,
    sessionTtlHours,
    logLevel: logLevelText as LogLevel,
    demoData,
    demoFiles,
    pipelineThreads,
    trustProxyHops: trustProxyHops > 0 ? trustProxyHops : undefined,
    bodyTimeoutSeconds,
    ...(smtpUrl === undefined ? {} : { smtpUrl }),
    mailFrom,
    ...(objectStorage === undefined ? {} : { objectStorage }),
  };
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function parseObjectStorage(text: (name: string) => string | undefined, problems: string[]): ObjectStorageSettings | undefined {
  const value = text('BLOB_STORE');
  if (value === undefined) return undefined;
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(value);
  if (match === null) {
    problems.push(`BLOB_STORE must be s3://BUCKET or s3://BUCKET/PREFIX (got "${value}"); leave it unset to keep files in DATA_DIR`);
    return undefined;
  }
  const bucket = match[1]!;
  if (!BUCKET.test(bucket)) {
    problems.push(`BLOB_STORE: "${bucket}" is not a bucket name (3-63 lower-case letters, digits, dots and hyphens)`);
  }
  const trimmed = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  const prefix = trimmed === '' ? '' : `${trimmed}/`;
  const endpointName = text('AWS_ENDPOINT_URL_S3') !== undefined ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL';
  const endpointText = text(endpointName);
  const endpoint = endpointText === undefined ? undefined : parseUrl(endpointText, endpointName, problems);
  const region = text('AWS_REGION') ?? text('AWS_DEFAULT_REGION');
  if (region === undefined && endpoint === undefined) {
    problems.push('AWS_REGION is required with BLOB_STORE on AWS S3 (or set AWS_ENDPOINT_URL_S3 for another S3-compatible service)');
  }
  if ((text('AWS_ACCESS_KEY_ID') === undefined) !== (text('AWS_SECRET_ACCESS_KEY') === undefined)) {
    problems.push('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both or neither');
  }
  return { bucket, prefix, endpoint, region: region ?? 'us-east-1' };
}

function parseInteger(value: string, name: string, min: number, max: number, problems: string[]): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
    return min;
  }
  return number;
}

function parseNumber(value: string, name: string, problems: string[]): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    problems.push(`${name} must be a positive number (got "${value}")`);
    return 1;
  }
  return number;
}

function parseBoolean(value: string, name: string, problems: string[]): boolean {
  const lower = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  problems.push(`${name} must be true or false (got "${value}")`);
  return false;
}

function parseUrl(value: string, name: string, problems: string[]): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return value.replace(/\/+$/, '');
  } catch {
    problems.push(`${name} must be an http:// or https:// URL (got "${value}")`);
    return 'http://localhost';
  }
}
