// One logging setup for the HTTP server, the CLI and workers: pino, JSON lines, with secrets
// (cookies, authorization headers, passwords) redacted so logs can be shipped anywhere.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_hash',
  '*.client_secret',
];

export function loggerOptions(level: LogLevel): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
}

export function createLogger(level: LogLevel = 'info'): Logger {
  return pino(loggerOptions(level));
}

/** Request ids: keep a caller's X-Request-Id when it looks sane, so traces join across proxies. */
export function requestId(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  if (typeof header === 'string' && /^[\w.:-]{1,128}$/.test(header)) return header;
  return randomUUID();
}
