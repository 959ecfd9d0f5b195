// Schema-driven fuzzing of every operation of the contract: seeded, a few thousand requests
// with values drawn from each parameter's and body's schema and, mixed in, hostile ones (NUL,
// lone surrogates, malformed percent-encoding, numbers beyond any column, very long text,
// invalid JSON). Whoever calls, no answer may be a 5xx, and every refusal is in the spec's
// shape: {"detail": "text"} or {"detail": {"error_type": ..., "message": ...}}.
// Runs on PGlite, and on PostgreSQL when DATABASE_URL is set. FUZZ_RUNS and FUZZ_SEED change
// how many requests and which.
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Operation } from '../../server/contract/contract';
import { apiPlugins } from '../../server/routes/index';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/test-app';
import {
  insertAnswerSheet,
  insertCongregation,
  insertCourse,
  insertFile,
  insertPage,
  insertRecruitingPoint,
  insertServiceCenter,
  insertStudent,
  insertStudyHelper,
} from './support';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);

type Schema = Record<string, unknown>;

/** Text that has broken servers: NUL, lone surrogates, controls, long and odd strings. */
const nulText = fc.string({ maxLength: 6 }).chain((text) => fc.nat(text.length).map((at) => `${text.slice(0, at)}\u0000${text.slice(at)}`));
const oddText = fc.constantFrom(
  '\ud800',
  'x\udfffy',
  '\r\n',
  '\t/evil.example',
  '%ZZ',
  '%00',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'ß漢字🙂',
  '\u202e',
  'x'.repeat(10_000),
  '',
  ' ',
  '-1',
  '1e400',
  '99999999999999999999999',
  '-99999999999999999999999',
  '2147483648',
  '9223372036854775808',
  'NaN',
  'true',
  'null',
  '00000000-0000-0000-0000-000000000000',
  '1970-01-01T00:00:00Z',
  '99999-12-31T00:00:00Z',
);
const hostileText = fc.oneof(nulText, oddText);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 31, 2 ** 63, 1.5, Number.MAX_SAFE_INTEGER + 2, null, true, [], {}, { '\u0000': 1 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

/** Values a schema allows, most of the time, and hostile ones now and then. */
function fromSchema(schema: Schema | undefined, ids: string[], depth = 0, hostileWeight = 1): fc.Arbitrary<unknown> {
  if (hostileWeight === 0) return valid(schema ?? {}, ids, depth, 0);
  return fc.oneof(
    { weight: 3, arbitrary: valid(schema ?? {}, ids, depth, hostileWeight) },
    { weight: hostileWeight, arbitrary: hostileValue },
  );
}

function valid(schema: Schema, ids: string[], depth: number, hostileWeight = 1): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant(null);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (options && options.length > 0) return fc.oneof(...options.map((option) => valid(option, ids, depth + 1, hostileWeight)));
  }
  const allOf = schema.allOf as Schema[] | undefined;
  if (allOf && allOf.length > 0) return valid(Object.assign({}, ...allOf) as Schema, ids, depth + 1, hostileWeight);
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((one) => valid({ ...schema, type: one }, ids, depth + 1, hostileWeight)));
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...ids), fc.uuid());
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
      if (schema.format === 'date') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
      return fc.string({ maxLength: typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 40) : 40 });
    case 'integer':
      return fc.integer({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1000,
        max: typeof schema.maximum === 'number' ? Math.min(schema.maximum, 2 ** 31) : 100_000,
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(schema.items as Schema | undefined, ids, depth + 1, hostileWeight), { maxLength: 4 });
    case 'object':
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0) return type === 'object' ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue()) : fc.jsonValue();
      const required = (schema.required ?? []) as string[];
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = fromSchema(property, ids, depth + 1, hostileWeight);
      return fc.record(record, { requiredKeys: required.filter((name) => name in properties) });
    }
    default:
      return fc.jsonValue();
  }
}

/** Percent-encodes like encodeURIComponent, but lone surrogates become invalid UTF-8 bytes. */
function encode(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return Array.from(text)
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if (code >= 0xd800 && code <= 0xdfff) return '%ED%A0%80';
      return encodeURIComponent(char);
    })
    .join('');
}


/** Operations whose answer is an open event stream for a known run: fuzzed with unknown ids only. */
const STREAMS = new Set(['streamJobProgress', 'streamProgress']);

interface Drawn {
  operationId: string;
  method: string;
  caller: 'anonymous' | 'admin' | 'coordinator';
  path: string;
  query: string;
  body: unknown;
  rawBody: string | null;
  multipart: Record<string, unknown> | null;
}

const rawSegment = fc.constantFrom('%ZZ', '%', '%E0%A4%A', '%C0%AF', '..', '%2e%2e');

/**
 * Requests for one operation. With `target` undefined, any value may be hostile (mostly the
 * contract's validation answers); with a target (an index over path, query and body), only
 * that one is, the others valid, so the hostile value reaches the handler and the database.
 */
function requestFor(op: Operation, ids: string[], target?: number): fc.Arbitrary<Drawn> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const idPool = STREAMS.has(op.operationId) ? [randomUUID()] : ids;
  const value = (schema: Schema, at: number) => {
    if (target === undefined) return fc.oneof({ weight: 5, arbitrary: fromSchema(schema, idPool, 0, 1).map(encode) }, { weight: 1, arbitrary: rawSegment });
    if (at !== target) return fromSchema(schema, idPool, 0, 0).map(encode);
    return fc.oneof({ weight: 4, arbitrary: hostileValue.map(encode) }, { weight: 1, arbitrary: rawSegment });
  };
  const pathValues = fc.tuple(...pathParams.map((p, at) => value(p.schema, at)));
  const queryValues = fc.tuple(
    ...queryParams.map((p, at) => {
      const index = pathParams.length + at;
      return index === target ? value(p.schema, index) : fc.option(value(p.schema, index), { nil: undefined });
    }),
  );
  const bodyIndex = pathParams.length + queryParams.length;
  const bodyHostility = target === undefined ? 1 : target === bodyIndex ? 2 : 0;
  const body = op.jsonBody ? fromSchema(op.jsonBody, idPool, 0, bodyHostility) : fc.constant(undefined);
  const rawBody =
    target === undefined
      ? fc.option(fc.constantFrom('{"name": ', '{"a":"\\u0000"}', '[1,', 'null', '"\\ud800"', '{"__proto__": {"x": 1}}', '\u0000'), { nil: null, freq: 6 })
      : fc.constant(null);
  const multipart = op.multipart
    ? fc.option(fc.dictionary(fc.constantFrom('name', 'answer_sheet_page_length', 'scanned_at', 'study_helper', 'other'), fc.oneof(hostileText, fc.string({ maxLength: 20 }))), { nil: null, freq: 5 })
    : fc.constant(null);
  const caller = op.operationId === 'logout' ? fc.constant('anonymous' as const) : fc.constantFrom('anonymous' as const, 'admin' as const, 'admin' as const, 'coordinator' as const);
  return fc.record({ pathValues, queryValues, body, rawBody, multipart, caller }).map((drawn) => {
    let index = 0;
    const path = op.path.replace(/\{[^}]+\}/g, () => String(drawn.pathValues[index++] ?? ''));
    const query = queryParams
      .map((p, at) => (drawn.queryValues[at] === undefined ? null : `${encodeURIComponent(p.name)}=${String(drawn.queryValues[at])}`))
      .filter((part): part is string => part !== null)
      .join('&');
    // The operation by name only, so a counterexample prints short.
    return { operationId: op.operationId, method: op.method, caller: drawn.caller, path, query, body: drawn.body, rawBody: drawn.rawBody, multipart: drawn.multipart };
  });
}

/** Both kinds of request for an operation: anything hostile, or one hostile value among valid ones. */
function requestsFor(op: Operation, ids: string[]): fc.Arbitrary<Drawn> {
  const places = op.parameters.filter((p) => p.in === 'path' || p.in === 'query').length + (op.jsonBody ? 1 : 0);
  if (places === 0) return requestFor(op, ids);
  return fc.oneof(requestFor(op, ids), fc.nat(places - 1).chain((target) => requestFor(op, ids, target)));
}

function multipartBody(fields: Record<string, unknown>): { payload: Buffer; contentType: string } {
  const boundary = `----fuzz${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`));
  }
  // Not a PDF: the bytes are never read as pages, only refused.
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\nnot a pdf\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** {"detail": "text"} or {"detail": {"error_type": "...", "message": "..."}}. */
function isSpecError(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('detail' in body)) return false;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return detail !== '';
  if (typeof detail !== 'object' || detail === null) return false;
  const { error_type: type, message } = detail as { error_type?: unknown; message?: unknown };
  return typeof type === 'string' && type !== '' && (message === undefined || typeof message === 'string');
}

describe('fuzzing every operation of the contract', () => {
  let test: TestApp;
  let ids: string[];
  let callers: { admin: SignedIn; coordinator: SignedIn };

  beforeAll(async () => {
    test = await createTestApp({ plugins: apiPlugins() });
    const db = test.db;
    const serviceCenter = await insertServiceCenter(db, 'Fuzz center');
    const point = await insertRecruitingPoint(db, serviceCenter, 'Fuzz point');
    const congregation = await insertCongregation(db, 'FZ 1000');
    const helper = await insertStudyHelper(db, congregation, 'Fuzz Helper');
    const student = await insertStudent(db, { congregationId: congregation, studyHelperId: helper, country: 'GH', serviceCenterId: serviceCenter });
    const { courseId, lessonIds } = await insertCourse(db, 'Fuzz course', ['Lesson 1']);
    const file = await insertFile(db, 'Fuzz file', { serviceCenterId: serviceCenter });
    const sheet = await insertAnswerSheet(db, file, { studentId: student.id, lessonId: lessonIds[0]!, assignedGroup: congregation });
    await insertPage(db, file, 1, sheet);
    const page = await db.one<{ id: string }>('SELECT id FROM pages WHERE file_id = $1', [file]);
    ids = [serviceCenter, point, congregation, helper, student.id, courseId, lessonIds[0]!, file, sheet, page.id];
    callers = {
      admin: await signIn(test.app, 'fuzz-admin@test.local', { role: 'scanning_admin', isAdmin: true, congregationId: null }),
      coordinator: await signIn(test.app, 'fuzz-coordinator@test.local', { role: 'study_helper_coordinator', isAdmin: false, congregationId: congregation }),
    };
  }, 60_000);

  afterAll(async () => {
    await test?.close();
  });

  it(`answers ${RUNS} generated requests without a 5xx, refusals in the spec's shape`, async () => {
    const operations = contract().operations;
    expect(operations.length).toBeGreaterThan(50);
    const anyRequest = fc.oneof(...operations.map((op) => requestsFor(op, ids)));
    const seen = new Map<string, number>();

    await fc.assert(
      fc.asyncProperty(anyRequest, async (drawn) => {
        const who = drawn.caller === 'anonymous' ? null : callers[drawn.caller];
        const headers: Record<string, string> = who ? { ...who.headers } : { origin: TEST_PUBLIC_URL };
        const options: InjectOptions = {
          method: drawn.method as InjectOptions['method'],
          url: drawn.query === '' ? drawn.path : `${drawn.path}?${drawn.query}`,
          headers,
        };
        if (drawn.multipart !== null) {
          const body = multipartBody(drawn.multipart);
          options.payload = body.payload;
          headers['content-type'] = body.contentType;
        } else if (drawn.rawBody !== null && drawn.method !== 'GET') {
          options.payload = drawn.rawBody;
          headers['content-type'] = 'application/json';
        } else if (drawn.body !== undefined && drawn.method !== 'GET') {
          options.payload = JSON.stringify(drawn.body);
          headers['content-type'] = 'application/json';
        }
        const response = await test.app.inject(options);
        // View As would turn the admin into a coordinator for the requests after it.
        if (drawn.operationId === 'setViewAs') await test.db.query('UPDATE sessions SET acting_congregation_id = NULL');
        const status = response.statusCode;
        seen.set(`${Math.floor(status / 100)}xx`, (seen.get(`${Math.floor(status / 100)}xx`) ?? 0) + 1);
        const where = `${options.method} ${options.url} as ${drawn.caller}: ${status} ${response.body.slice(0, 300)}`;
        expect(status, where).toBeLessThan(500);
        // A HEAD answer has GET's headers and no body.
        if (status >= 400 && options.method !== 'HEAD' && String(response.headers['content-type']).includes('json')) {
          expect(isSpecError(response.json()), where).toBe(true);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The generator reached the handlers, not only the validation in front of them.
    expect(seen.get('2xx') ?? 0).toBeGreaterThan(RUNS / 50);
    expect(seen.get('4xx') ?? 0).toBeGreaterThan(RUNS / 4);
  }, 600_000);

  it('answers malformed multipart bodies and deeply nested JSON with 400s in the spec shape, keeping nothing', async () => {
    const operations = contract().operations;
    const uploads = operations.filter((op) => op.multipart);
    const jsonOps = operations.filter((op) => op.jsonBody !== undefined);
    expect(uploads.length).toBeGreaterThanOrEqual(2);
    const filesBefore = await test.db.one<{ n: number }>('SELECT (SELECT count(*) FROM files) + (SELECT count(*) FROM graded_uploads) AS n');
    const blobsBefore = await blobFiles(path.join(test.config.dataDir, 'blobs'));

    const wellFormed = (boundary: string, parts: number) => {
      const chunks = [];
      for (let i = 0; i < parts - 1; i++) chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nFuzz ${i}\r\n`);
      chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n${'x'.repeat(2000)}\n%%EOF\r\n--${boundary}--\r\n`);
      return Buffer.from(chunks.join(''));
    };
    // Each kind of malformed body: the content type it is sent with, and its bytes.
    const malformed = fc.oneof(
      fc.constant({ kind: 'no boundary', contentType: 'multipart/form-data', payload: wellFormed('b0undary', 2) }),
      fc.constant({ kind: 'empty boundary', contentType: 'multipart/form-data; boundary=', payload: wellFormed('b0undary', 2) }),
      fc.constant({ kind: 'wrong boundary', contentType: 'multipart/form-data; boundary=other', payload: wellFormed('b0undary', 2) }),
      fc.nat(2100).map((at) => ({ kind: 'cut off', contentType: 'multipart/form-data; boundary=b0undary', payload: wellFormed('b0undary', 2).subarray(0, at + 1) })),
      fc.integer({ min: 31, max: 200 }).map((parts) => ({ kind: 'too many parts', contentType: 'multipart/form-data; boundary=b0undary', payload: wellFormed('b0undary', parts) })),
      fc.constant({ kind: 'two files', contentType: 'multipart/form-data; boundary=b0undary', payload: Buffer.concat([wellFormed('b0undary', 1).subarray(0, -14), wellFormed('b0undary', 1)]) }),
      fc.constant({ kind: 'garbled part header', contentType: 'multipart/form-data; boundary=b0undary', payload: Buffer.from('--b0undary\r\nContent-Disposition\r\n\r\nx\r\n--b0undary--\r\n') }),
    );
    const statuses = new Map<string, Set<number>>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...uploads.map((op) => op.path)), fc.constantFrom('admin' as const, 'coordinator' as const), malformed, async (url, caller, body) => {
        const response = await test.app.inject({
          method: 'POST',
          url,
          headers: { ...callers[caller].headers, 'content-type': body.contentType },
          payload: body.payload,
        });
        const where = `${url} as ${caller}, ${body.kind} (${body.payload.length} bytes): ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, where).toBeLessThan(500);
        if (response.statusCode !== 403) {
          expect(response.statusCode, where).toBe(400);
          expect(isSpecError(response.json()), where).toBe(true);
        }
        statuses.set(body.kind, (statuses.get(body.kind) ?? new Set()).add(response.statusCode));
      }),
      { numRuns: 300, seed: SEED },
    );
    expect([...statuses.keys()].sort()).toEqual(['cut off', 'empty boundary', 'garbled part header', 'no boundary', 'too many parts', 'two files', 'wrong boundary']);

    // JSON nested up to 5,000 deep, arrays or objects, in every operation taking a JSON body.
    const nested = fc.tuple(fc.integer({ min: 33, max: 5000 }), fc.boolean()).map(([depth, arrays]) =>
      arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...jsonOps.map((op) => op.operationId)), nested, async (operationId, text) => {
        const op = jsonOps.find((candidate) => candidate.operationId === operationId)!;
        let index = 0;
        const url = op.path.replace(/\{[^}]+\}/g, () => ids[index++ % ids.length]!);
        const response = await test.app.inject({
          method: op.method as InjectOptions['method'],
          url,
          headers: { ...callers.admin.headers, 'content-type': 'application/json' },
          payload: text,
        });
        const where = `${op.operationId} with ${text.length} bytes of nesting: ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, where).toBe(400);
        expect(isSpecError(response.json()), where).toBe(true);
      }),
      { numRuns: 200, seed: SEED },
    );

    // Nothing was kept: no file, no upload, no stored or half-written blob.
    const filesAfter = await test.db.one<{ n: number }>('SELECT (SELECT count(*) FROM files) + (SELECT count(*) FROM graded_uploads) AS n');
    expect(Number(filesAfter.n)).toBe(Number(filesBefore.n));
    expect(await blobFiles(path.join(test.config.dataDir, 'blobs'))).toEqual(blobsBefore);
  }, 300_000);
});

/** Every file under the blob folder (blobs and temporary parts), by relative path. */
async function blobFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))).sort();
}
