// The contract check judged on servers whose behaviour is known: the portal as it is, behind
// Stoplight Prism's validation proxy (every operation passes or is a skip with its reason, the
// data is left exactly as it was, and Prism finds no violation in the traffic), and the same
// portal with seven promises broken at once (each break fails its operation, and only it).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import document from '../../generated/openapi.json' with { type: 'json' };
import { freePort } from '../helpers/live-server';
import { startCheckedServer, type CheckedServer } from './check-server';
import { formatResults, junitXml, runContractCheck, summary, type CheckResult } from './contract-check';
import { signInLive } from './live-sign-in';

type Break = 'renamed field' | 'wrong status' | 'json as text' | 'admin refused' | 'steps without prepped' | 'twice limit' | 'delete keeps';
const breaks = new Set<Break>();

/** Breaks one promise per operation while `breaks` holds it; a global plugin (skip-override). */
async function breakingPlugin(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const operationId = request.routeOptions.config.operation?.operationId;
    if (breaks.has('admin refused') && operationId === 'listCountries') {
      return reply.code(403).send({ detail: 'Forbidden' });
    }
    // Answers as a delete does, and keeps the file: the check must notice the trace it left.
    if (breaks.has('delete keeps') && operationId === 'deleteFile' && /^[0-9a-f-]{36}$/.test((request.params as { file_id: string }).file_id)) {
      const signedIn = (request.headers.cookie ?? '').includes('session=');
      if (signedIn) return reply.code(204).send();
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = request.routeOptions.config.operation?.operationId;
    if (reply.statusCode >= 300 || typeof payload !== 'string') return payload;
    const json = () => JSON.parse(payload) as Record<string, unknown>;
    if (breaks.has('renamed field') && operationId === 'getCongregation') {
      const { wbs_code, ...rest } = json();
      return JSON.stringify({ ...rest, wbs: wbs_code });
    }
    if (breaks.has('wrong status') && operationId === 'getServiceCenter') reply.code(201);
    if (breaks.has('json as text') && operationId === 'getCountry') reply.header('content-type', 'text/plain; charset=utf-8');
    if (breaks.has('steps without prepped') && operationId === 'getFileSteps') {
      const { prepped: _prepped, ...rest } = json();
      return JSON.stringify(rest);
    }
    if (breaks.has('twice limit') && operationId === 'listStudents') {
      const body = json() as { items: unknown[]; limit: number };
      const rows = Array.from({ length: body.limit * 2 }, (_, i) => body.items[i % body.items.length]);
      return JSON.stringify({ ...body, items: rows });
    }
    return payload;
  });
}
(breakingPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

/** Every row of every table the programme keeps, hashed: what "the data as before" means here. */
async function dataDigest(server: CheckedServer): Promise<Record<string, string>> {
  // Sign-in state changes with every sign-in (the check's own sessions, and sign-ins it starts
  // by calling login, which expire unused); job progress is the queue's history, and the mail
  // record the history of what the portal e-mailed about the check's own file (admins keep it).
  const volatile = ['sessions', 'login_states', 'oidc_provider_records', 'sign_in_failures', 'users', 'job_progress', 'schema_migrations', 'mail_messages'];
  const tables = await server.db.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    if (volatile.includes(name)) continue;
    const row = await server.db.one<{ digest: string | null; rows: number }>(
      `SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest, count(*)::int AS rows FROM "${name}" t`,
    );
    digest[name] = `${row.rows} rows ${row.digest ?? ''}`;
  }
  return digest;
}

let server: CheckedServer;

async function check(baseUrl = server.url, directUrl?: string): Promise<CheckResult[]> {
  const admin = await signInLive(server.url, 'admin@demo.local', 'demo');
  const coordinator = await signInLive(server.url, 'coordinator@demo.local', 'demo');
  const { results } = await runContractCheck({
    document,
    baseUrl,
    directUrl,
    origin: server.url,
    admin,
    coordinator,
    ownSessions: true,
  });
  return results;
}

const byOutcome = (results: CheckResult[], outcome: CheckResult['outcome']) =>
  results.filter((r) => r.outcome === outcome).map((r) => r.operationId).sort();

beforeAll(async () => {
  server = await startCheckedServer([breakingPlugin]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the contract check', () => {
  it('passes the portal, calls every operation, leaves its data as it was, and Prism agrees', async () => {
    const before = await dataDigest(server);
    // The check's calls pass through Stoplight Prism's validation proxy, an independent judge.
    // The deliberately wrong requests (anonymous, bad input), uploads and redirects go to the
    // server directly: Prism would rightly call the first violations, and it mangles binary
    // bodies and follows redirects.
    const port = await freePort();
    const prism = spawn(
      join(import.meta.dirname, '../../node_modules/.bin/prism'),
      ['proxy', join(import.meta.dirname, '../../generated/openapi.json'), server.url, '--port', String(port), '--host', '127.0.0.1'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    prism.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    prism.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    let results: CheckResult[];
    try {
      await listening(prism, () => log, `http://127.0.0.1:${port}`);
      results = await check(`http://127.0.0.1:${port}`, server.url);
    } finally {
      prism.kill('SIGTERM');
    }
    const after = await dataDigest(server);
    const lines = log.split('\n');
    const violations = lines.flatMap((line, i) => (/violation|✖/i.test(line) ? [lines.slice(Math.max(0, i - 4), i + 1).join('\n')] : []));
    expect(violations).toEqual([]);
    expect(log.match(/Forwarding "/g)?.length ?? 0).toBeGreaterThan(100);

    expect(byOutcome(results, 'fail'), formatResults(results)).toEqual([]);
    // Skipped: the database delete only; every create is called for real and undone.
    expect(byOutcome(results, 'skip')).toEqual(['deleteDatabase']);
    expect(results.find((r) => r.operationId === 'deleteDatabase')!.status).toBeNull();
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId),
    );
    expect(operations).toHaveLength(99);
    for (const id of operations) expect(results.some((r) => r.operationId === id && r.status !== null) || id === 'deleteDatabase', id).toBe(true);
    // The file, page and answer-sheet calls ran on a real scan, not on an unknown id.
    for (const id of ['getFileSteps', 'getPage', 'getAnswerSheet', 'listPages', 'getPageThumbnail', 'updatePage', 'updateAnswerSheet', 'deleteFile']) {
      expect([200, 204], id).toContain(results.find((r) => r.operationId === id)!.status);
    }
    // The creates ran for real, and so did what undoes them.
    const status = (id: string) => results.find((r) => r.operationId === id)!.status;
    for (const id of ['createServiceCenter', 'createRecruiter', 'createContactPerson', 'createCongregation', 'createCongregationStudyHelper', 'createCongregationEmail', 'createBaptismRequest', 'uploadStudyHelperFile']) {
      expect(status(id), id).toBe(201);
    }
    expect(status('sendFile')).toBe(202);
    expect(status('flagAnswerSheetBaptismRequest')).toBe(200);
    expect(status('recallFile')).toBe(200);
    for (const id of ['deleteServiceCenter', 'deleteRecruiter', 'deleteContactPerson', 'deleteCongregation', 'deleteCongregationEmail', 'deleteStudyHelper', 'deleteBaptismRequest', 'withdrawUpload']) {
      expect(status(id), id).toBe(204);
    }
    expect(summary(results)).toMatch(/^\d+ passed, 0 failed, 1 skipped$/);
    expect(formatResults(results).split('\n').at(-1)).toBe(summary(results));
    const xml = junitXml(results);
    expect(xml).toContain(`tests="${results.length}" failures="0" skipped="1"`);
    expect(xml).toContain('<skipped message="skipped: destructive');

    expect(after).toEqual(before);
  }, 300_000);

  it('fails each operation whose promise is broken, and only those', async () => {
    for (const kind of ['renamed field', 'wrong status', 'json as text', 'admin refused', 'steps without prepped', 'twice limit', 'delete keeps'] as const) breaks.add(kind);
    let results: CheckResult[];
    try {
      results = await check();
    } finally {
      breaks.clear();
    }
    const problems = (id: string) => results.find((r) => r.operationId === id)!.problems.join('; ');
    expect(byOutcome(results, 'fail'), formatResults(results)).toEqual(
      ['getCongregation', 'getServiceCenter', 'getCountry', 'listCountries', 'getFileSteps', 'listStudents', 'deleteFile', '(data as before)'].sort(),
    );
    expect(problems('getCongregation')).toMatch(/body: .*wbs_code/);
    expect(problems('getServiceCenter')).toMatch(/status 201/);
    expect(problems('getCountry')).toContain('content type text/plain, the contract says application/json');
    expect(problems('listCountries')).toContain('status 403, expected 200');
    expect(problems('getFileSteps')).toMatch(/body: .*prepped/);
    expect(problems('listStudents')).toContain('page holds 6 rows, more than limit 3');
    expect(problems('deleteFile')).toContain('the file is still there');
    expect(problems('(data as before)')).toMatch(/listFiles: total \d+ before, \d+ after/);
  }, 300_000);
});

async function listening(child: ChildProcess, log: () => string, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited:\n${log()}`);
    try {
      await fetch(`${url}/healthz`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(`prism did not start:\n${log()}`);
}
