import pg from 'pg';
import { statement } from '../server/db/postgres';
import { fileSelect } from '../server/jobs/file-view';
import { fileSelect as oldSelect } from './_fvold';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/portal_bench_lists' });
await c.connect();
const order = 'ORDER BY f.created_at DESC, f.id DESC';
for (const [name, sel] of [['old', oldSelect], ['new', fileSelect], ['old', oldSelect], ['new', fileSelect]] as const) {
  const sql = `WITH page AS (SELECT f.* FROM files f WHERE ($1::uuid IS NULL OR true) ${order} LIMIT $2 OFFSET $3) ${sel('$1', 'page')} ${order}`;
  for (let i = 0; i < 30; i++) await c.query(statement(sql, [null, 10, i * 10]));
  const s = performance.now();
  for (let i = 0; i < 200; i++) await c.query(statement(sql, [null, 10, (i % 50) * 10]));
  console.log(name, ((performance.now() - s) / 200).toFixed(2), 'ms/query');
}
await c.end();
