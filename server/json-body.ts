// JSON request bodies: Fastify's own parser (prototype poisoning refused), after a cheap scan
// that refuses nesting deeper than any body of the contract needs, so a body 5,000 arrays deep
// is a 400 before recursive code (validation, the NUL check) walks it.
import type { FastifyInstance } from 'fastify';
import { validationError, type HttpError } from './http-error.js';

/** The deepest nesting of objects and arrays a JSON body may have (the contract's need ~4). */
export const MAX_JSON_DEPTH = 32;

/** Whether JSON text nests objects/arrays deeper than `limit` (strings are skipped). */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function tooDeepError(): HttpError {
  return validationError(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
}

/** Replaces the application/json parser with the depth check in front of Fastify's parser. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(tooDeepError(), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
