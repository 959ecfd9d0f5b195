// Benchmark: the students and files list calls at scale on PostgreSQL (100k students, 10k files,
// 500k answer sheets, 1M pages), 20 concurrent clients, p50/p95 — next to the very same SQL the
// handlers ran, executed directly through the same driver with the same concurrency and pool size.
// The ratio is the figure: what the API adds to running its SQL.
// The HTTP clients are wrk (bench/wrk-load.ts), keep-alive, as browsers are. Clients share the
// machine's two cores with the server here, where real ones do not: a Node.js client cost 0.4 ms
// of CPU per request (as much as the app), wrk 0.03 ms.
//   npm run bench -- lists            (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/test;
//                                      BENCH_SECONDS, BENCH_ROUNDS: length and number of measured runs)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app';
import { FolderBlobStore } from '../server/blob-store';
import { loadConfig } from '../server/config';
import { createSession } from '../server/auth/session-store';
import type { Database } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { openPostgres, statement, typeParsers } from '../server/db/postgres';
import { loadReferenceData } from '../server/seed/countries';
import { apiPlugins } from '../server/routes/index';
import { cpuSecondsOf } from './serve-processes';
import { wrkLoad } from './wrk-load';

const CLIENTS = 20;
/** How long each scenario runs, through the API and directly (BENCH_SECONDS: longer, steadier runs). */
const SECONDS_PER_SCENARIO = Number(process.env.BENCH_SECONDS ?? 3);
/** Unmeasured load before a scenario's measured runs, the same as the runs'. */
const WARM_UP_SECONDS = 3;
/** Measured runs of each scenario, through the API and directly in turn (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const POOL_SIZE = 10;
const adminUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const benchDbName = 'portal_bench_lists';

async function ensureDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [benchDbName]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${benchDbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${benchDbName}`;
  return url.toString();
}

async function seed(db: Database) {
  const { n } = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM students');
  if (n >= 100_000) return false;
  console.log('seeding 100k students, 10k files, 500k answer sheets, 1M pages ...');
  await db.exec(`
    INSERT INTO congregations (wbs_code, display_name)
      SELECT 'BX ' || g, 'Bench congregation ' || g FROM generate_series(1000, 1049) g ON CONFLICT DO NOTHING;
    INSERT INTO service_centers (name, location, country_iso)
      SELECT 'Bench service center ' || g, 'City ' || g, (ARRAY['GH','NG','KE','US','PH'])[1 + g % 5] FROM generate_series(1, 20) g;
    INSERT INTO study_helpers (congregation_id, name, email)
      SELECT c.id, 'Helper ' || c.wbs_code || '-' || g, 'helper@example.org' FROM congregations c, generate_series(1, 10) g
      WHERE c.wbs_code LIKE 'BX %';
    WITH c AS (SELECT id, row_number() OVER (ORDER BY wbs_code) AS rn FROM congregations WHERE wbs_code LIKE 'BX %'),
         sc AS (SELECT id, row_number() OVER (ORDER BY name) AS rn FROM service_centers WHERE name LIKE 'Bench %')
    INSERT INTO students (congregation_id, country_iso, service_center_id, attributes, created_at)
      SELECT c.id, (ARRAY['GH','NG','KE','US','PH'])[1 + g % 5], sc.id,
             jsonb_build_object('name', 'Student ' || g, 'gender', 'her_Female'),
             now() - g * interval '1 minute'
      FROM generate_series(1, 100000) g
      JOIN c ON c.rn = 1 + g % 50
      JOIN sc ON sc.rn = 1 + g % 20;
    UPDATE students s SET study_helper_id = h.id
      FROM (SELECT id, congregation_id, row_number() OVER (PARTITION BY congregation_id ORDER BY id) AS rn FROM study_helpers) h
      WHERE h.congregation_id = s.congregation_id AND h.rn = 1 + (s.human_id % 10);
    WITH sc AS (SELECT id, row_number() OVER (ORDER BY name) AS rn FROM service_centers WHERE name LIKE 'Bench %')
    INSERT INTO files (name, sha256, blob_key, size_bytes, page_count, process_status, file_status, grading_complete,
                       printed, service_center_id, uploaded_at, created_at, sent_at)
      SELECT 'Bench file ' || g, encode(sha256(('bench-file-' || g)::bytea), 'hex'), 'bench', 0, 100,
             (ARRAY['success','success','success','success','pending','failed'])[1 + g % 6],
             (ARRAY[NULL,NULL,'grading','downloaded','archived'])[1 + g % 5],
             g % 7 = 0, g % 3 = 0, sc.id, now() - g * interval '5 minutes', now() - g * interval '5 minutes',
             CASE WHEN g % 5 >= 2 THEN now() - g * interval '4 minutes' END
      FROM generate_series(1, 10000) g JOIN sc ON sc.rn = 1 + g % 20;
    WITH f AS (SELECT id, row_number() OVER (ORDER BY created_at) AS rn FROM files WHERE name LIKE 'Bench file %'),
         st AS (SELECT id, congregation_id, row_number() OVER (ORDER BY human_id) AS rn FROM students)
    INSERT INTO answer_sheets (file_id, sequence, student_id, assigned_group, graded, created_at)
      SELECT f.id, g / 10000, st.id, st.congregation_id, g % 4 = 0, now() - g * interval '1 second'
      FROM generate_series(0, 499999) g
      JOIN f ON f.rn = 1 + g % 10000
      JOIN st ON st.rn = 1 + (g * 7) % 100000;
    INSERT INTO pages (file_id, page_number, answer_sheet_id)
      SELECT s.file_id, s.sequence * 2 + k, s.id FROM answer_sheets s, generate_series(1, 2) k;
    INSERT INTO file_congregations (file_id, congregation_id, status)
      SELECT DISTINCT file_id, assigned_group, 'unprinted' FROM answer_sheets WHERE assigned_group IS NOT NULL
      ON CONFLICT DO NOTHING;
    ANALYZE;
  `);
  return true;
}

interface Recorded {
  sql: string;
  params: readonly unknown[];
}

/** A Database that records the statements run while `recording` is set. */
function recordingDatabase(db: Database, into: { recording: boolean; statements: Recorded[] }): Database {
  const wrap = <K extends 'query' | 'one' | 'maybeOne' | 'execute'>(method: K) =>
    (async (sql: string, params: readonly unknown[] = []) => {
      if (into.recording) into.statements.push({ sql, params: [...params] });
      return (db[method] as (s: string, p?: readonly unknown[]) => Promise<unknown>)(sql, params);
    }) as Database[K];
  return { ...db, kind: db.kind, query: wrap('query'), one: wrap('one'), maybeOne: wrap('maybeOne'), execute: wrap('execute'), exec: db.exec.bind(db), transaction: db.transaction.bind(db), close: db.close.bind(db) };
}

/**
 * CPU time (ms) used so far by the PostgreSQL server's processes on this machine (the bench
 * talks to a local one): where the time of a request goes, next to the client's and the app's.
 */
function postgresCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) total += cpuSecondsOf(Number(pid)) * 1000;
    } catch {
      // A process that ended meanwhile.
    }
  }
  return total;
}

/** CPU ms of this process and of PostgreSQL while `work` runs. */
async function cpuDuring<T>(work: () => Promise<T>): Promise<{ result: T; appMs: number; databaseMs: number }> {
  const app = process.cpuUsage();
  const database = postgresCpuMs();
  const result = await work();
  const used = process.cpuUsage(app);
  return { result, appMs: (used.user + used.system) / 1000, databaseMs: postgresCpuMs() - database };
}

/**
 * With BENCH_CPU_PROFILE=<folder>, the app's CPU profile while wrk runs, one .cpuprofile per
 * scenario (open it in Chrome's DevTools): where the app's time per request goes.
 */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const folder = process.env.BENCH_CPU_PROFILE;
  if (!folder) return work();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** CLIENTS concurrent callers of `task` for `seconds`: the sorted latencies (ms). */
async function load(seconds: number, task: (i: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const i = next++;
        const start = performance.now();
        await task(i);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

async function main() {
  const url = await ensureDatabase();
  const raw = await openPostgres({ connectionString: url, max: POOL_SIZE });
  await migrate(raw);
  await loadReferenceData(raw);
  const seeded = await seed(raw);
  // The steady state autovacuum keeps a live database in: statistics, and a visibility map so
  // index-only scans need not visit the table.
  await raw.exec('VACUUM ANALYZE');
  // The server under test runs no jobs, as in the scale setup (job workers in processes of their
  // own): the seeded files are fakes whose blobs do not exist, and a server that ran jobs picked
  // the 'pending' ones up, failed them again and again while the lists were measured, and each of
  // those writes dropped the cached list totals (count-cache), so the API run counted again.
  process.env.JOB_WORKER = 'off';
  const rec = { recording: false, statements: [] as Recorded[] };
  const db = recordingDatabase(raw, rec);
  const config = { ...loadConfig({ DATABASE_URL: url, DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')), LOG_LEVEL: 'silent', DEMO_DATA: 'false' }) };
  const app = await buildApp({ config, db, blobStore: new FolderBlobStore({ root: join(config.dataDir, 'blobs') }), plugins: apiPlugins(), webRoot: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const [adminUser] = await raw.query<{ id: string }>(
    `INSERT INTO users (email, role, is_admin) VALUES ('bench-admin@bench.local', 'scanning_admin', true)
     ON CONFLICT (email) DO UPDATE SET role = EXCLUDED.role RETURNING id`,
  );
  const [coordinator] = await raw.query<{ id: string; congregation_id: string }>(
    `INSERT INTO users (email, role, congregation_id) SELECT 'bench-coord@bench.local', 'study_helper_coordinator', id FROM congregations WHERE wbs_code = 'BX 1000'
     ON CONFLICT (email) DO UPDATE SET role = EXCLUDED.role RETURNING id, congregation_id`,
  );
  const cookieName = new URL(config.publicUrl).protocol === 'https:' ? '__Host-session' : 'session';
  const adminCookie = `${cookieName}=${(await createSession(raw, adminUser!.id, 1)).token}`;
  const coordCookie = `${cookieName}=${(await createSession(raw, coordinator!.id, 1)).token}`;
  const { cong } = await raw.one<{ cong: string }>(`SELECT id AS cong FROM congregations WHERE wbs_code = 'BX 1010'`);

  const scenarios: { name: string; path: (i: number) => string; cookie: string }[] = [
    { name: 'students, admin, newest first', cookie: adminCookie, path: (i) => `/api/students?order_by=created_at&order_direction=desc&skip=${(i % 50) * 10}` },
    { name: 'students, admin, by human id, deep page', cookie: adminCookie, path: (i) => `/api/students?order_by=human_id&skip=${5000 + (i % 100) * 10}` },
    { name: 'students, admin, congregation + country', cookie: adminCookie, path: () => `/api/students?congregation=${cong}&country=GH` },
    { name: 'students, ID search', cookie: adminCookie, path: (i) => `/api/students?human_id_prefix=${10 + (i % 89)}&limit=20` },
    { name: 'students, coordinator', cookie: coordCookie, path: (i) => `/api/students?skip=${(i % 20) * 10}` },
    { name: 'files, admin, newest first', cookie: adminCookie, path: (i) => `/api/files?skip=${(i % 50) * 10}` },
    { name: 'files, admin, status grading', cookie: adminCookie, path: () => `/api/files?file_state=grading` },
    { name: 'files, admin, name search', cookie: adminCookie, path: (i) => `/api/files?query_name=file%20${1 + (i % 9)}` },
    { name: 'files, coordinator', cookie: coordCookie, path: (i) => `/api/files?skip=${(i % 10) * 10}` },
  ];

  // The driver as the server configures it: its values are the server's (bigint as number...).
  const directPool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types: typeParsers });
  /** The statements a handler ran (its session lookup is cached, as in the server), run directly. */
  const runStatements = async (statements: Recorded[]) => {
    for (const s of statements) {
      // Prepared by name, as the server's database layer runs it (server/db/postgres.ts).
      await directPool.query(statement(s.sql, s.params)).catch((error: Error) => {
        throw new Error(`${error.message}\n${s.sql}\n${JSON.stringify(s.params)}`);
      });
    }
  };
  const rows: { scenario: string; api_p50: number; api_p95: number; sql_p50: number; sql_p95: number; ratio_p95: number; round_ratios_p95: number[]; requests: { api: number; sql: number }; statements: number; api_cpu_ms: { client: number; app: number; database: number }; sql_cpu_ms: { client: number; database: number } }[] = [];
  const only = process.env.BENCH_ONLY;
  for (const scenario of scenarios.filter((s) => !only || s.name.startsWith(only))) {
    // Warm up first, so the statements recorded below are the steady state (totals cached).
    await load(1, async (i) => void (await (await fetch(base + scenario.path(i), { headers: { cookie: scenario.cookie } })).arrayBuffer()));
    // The scenario's distinct paths, in order: both runs go through them in turn, the API run
    // (wrk) and the direct one, so both do the same work (a deep page costs more than the first).
    const paths = [...new Set(Array.from({ length: 600 }, (_, i) => scenario.path(i)))];
    // The SQL each path's request runs in that steady state. A list's total, when asked, is cached
    // for 2 s (count-cache): the API run pays for it when it expires, the direct run never.
    const statementsFor: Recorded[][] = [];
    for (const path of paths) {
      rec.statements = [];
      rec.recording = true;
      const response = await fetch(base + path, { headers: { cookie: scenario.cookie } });
      rec.recording = false;
      if (!response.ok) throw new Error(`${scenario.name}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      statementsFor.push(rec.statements.filter((s) => !/FROM sessions|sessions s|^SELECT count\(\*\) AS total/i.test(s.sql)));
    }
    // Both runs measure the steady state of a long-running server: first the same load, unmeasured,
    // until the JIT has compiled the scenario's code (3 s of requests cost a third more CPU each
    // than 12 s did, measured), and the direct statements' connections have them prepared.
    await wrkLoad({ base, cookie: scenario.cookie, paths, clients: CLIENTS, seconds: WARM_UP_SECONDS });
    await load(WARM_UP_SECONDS, (i) => runStatements(statementsFor[i % paths.length]!));
    // The clients run in a process of their own, as real clients do (not on the server's event loop).
    // While they run, this process does nothing but serve them: its CPU is the app's.
    // ROUNDS measured runs of each, in turn (API, direct, API, direct...), and the medians of
    // their percentiles: this machine's speed drifts within seconds (its neighbours), and one
    // 3 s run of each gave ratios 0.2 apart from one bench run to the next.
    const apiRounds: { p50: number; p95: number; requests: number; clientMs: number; appMs: number; databaseMs: number }[] = [];
    const sqlRounds: { p50: number; p95: number; requests: number; clientMs: number; databaseMs: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const apiRun = await cpuDuring(() =>
        profiled(`${scenario.name}${round === 0 ? '' : ` ${round + 1}`}`, () =>
          wrkLoad({ base, cookie: scenario.cookie, paths, clients: CLIENTS, seconds: SECONDS_PER_SCENARIO }),
        ),
      );
      const { result: api } = apiRun;
      apiRounds.push({ p50: api.p50, p95: api.p95, requests: api.requests, clientMs: api.cpuMs, appMs: apiRun.appMs, databaseMs: apiRun.databaseMs });
      const sqlRun = await cpuDuring(() => load(SECONDS_PER_SCENARIO, (i) => runStatements(statementsFor[i % paths.length]!)));
      const { result: sql } = sqlRun;
      sqlRounds.push({ p50: percentile(sql, 50), p95: percentile(sql, 95), requests: sql.length, clientMs: sqlRun.appMs, databaseMs: sqlRun.databaseMs });
    }
    const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);
    // CPU ms per request over all rounds.
    const perRequest = <T extends { requests: number }>(items: T[], of: (item: T) => number) =>
      Math.round((100 * sum(items, of)) / sum(items, (item) => item.requests)) / 100;
    const row = {
      scenario: scenario.name,
      api_p50: median(apiRounds.map((r) => r.p50)),
      api_p95: median(apiRounds.map((r) => r.p95)),
      sql_p50: median(sqlRounds.map((r) => r.p50)),
      sql_p95: median(sqlRounds.map((r) => r.p95)),
      ratio_p95: median(apiRounds.map((r) => r.p95)) / median(sqlRounds.map((r) => r.p95)),
      round_ratios_p95: apiRounds.map((r, i) => Math.round((100 * r.p95) / sqlRounds[i]!.p95) / 100),
      requests: { api: sum(apiRounds, (r) => r.requests), sql: sum(sqlRounds, (r) => r.requests) },
      statements: statementsFor[0]!.length,
      // CPU ms per request: through the API (client process, app, PostgreSQL) and direct.
      api_cpu_ms: {
        client: perRequest(apiRounds, (r) => r.clientMs),
        app: perRequest(apiRounds, (r) => r.appMs),
        database: perRequest(apiRounds, (r) => r.databaseMs),
      },
      sql_cpu_ms: { client: perRequest(sqlRounds, (r) => r.clientMs), database: perRequest(sqlRounds, (r) => r.databaseMs) },
    };
    rows.push(row);
    console.log(
      `${row.scenario.padEnd(42)} api p50 ${row.api_p50.toFixed(1).padStart(6)} ms  p95 ${row.api_p95.toFixed(1).padStart(6)} ms | sql p50 ${row.sql_p50.toFixed(1).padStart(6)} ms  p95 ${row.sql_p95.toFixed(1).padStart(6)} ms | ratio ${row.ratio_p95.toFixed(2)}` +
        ` (rounds ${row.round_ratios_p95.join(' ')})` +
        ` | cpu/request api ${row.api_cpu_ms.client}+${row.api_cpu_ms.app}+${row.api_cpu_ms.database} ms, sql ${row.sql_cpu_ms.client}+${row.sql_cpu_ms.database} ms`,
    );
  }
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(
    join(import.meta.dirname, 'results/lists.json'),
    JSON.stringify({ seeded, clients: CLIENTS, pool: POOL_SIZE, seconds_per_run: SECONDS_PER_SCENARIO, rounds: ROUNDS, rows }, null, 2),
  );
  await app.close();
  await directPool.end();
  await raw.close();
}

await main();
