import pg from 'pg';
import { statement } from '../server/db/postgres';
import { studentSelect } from '../server/routes/shared/student';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/portal_bench_lists' });
await c.connect();
const order = 'ORDER BY s.created_at DESC, s.id DESC';
const sql = `WITH page AS (SELECT s.* FROM students s ${order} LIMIT $1 OFFSET $2) ${studentSelect('page')} ${order}`;
const ids = `WITH page AS (SELECT s.id FROM students s ${order} LIMIT $1 OFFSET $2) ${studentSelect('page p JOIN students s0 ON s0.id = p.id')} ${order}`;
for (const [name, run] of [
  ['unnamed', (i: number) => c.query(sql, [10, (i % 50) * 10])],
  ['named', (i: number) => c.query(statement(sql, [10, (i % 50) * 10]))],
  ['session unnamed', () => c.query('SELECT 1 FROM sessions WHERE id = $1', ['x'])],
] as const) {
  for (let i = 0; i < 50; i++) await run(i);
  const s = performance.now();
  for (let i = 0; i < 500; i++) await run(i);
  console.log(name, ((performance.now() - s) / 500).toFixed(3), 'ms/query');
}
await c.end();
const c2 = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/portal_bench_lists' });
await c2.connect();
for (const setting of ['SET join_collapse_limit = 1', 'SET plan_cache_mode = force_generic_plan']) {
  await c2.query(setting);
  for (let i = 0; i < 50; i++) await c2.query(statement(sql, [10, (i % 50) * 10]));
  const s = performance.now();
  for (let i = 0; i < 500; i++) await c2.query(statement(sql, [10, (i % 50) * 10]));
  console.log(setting, ((performance.now() - s) / 500).toFixed(3), 'ms/query');
}
const plan = await c2.query('EXPLAIN (ANALYZE) ' + sql.replace('$1', '10').replace('$2', '100'));
console.log(plan.rows.slice(-2));
await c2.end();
