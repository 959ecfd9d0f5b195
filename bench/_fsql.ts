import pg from 'pg';
import { fileSelect } from '../server/jobs/file-view';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/portal_bench_lists' });
await c.connect();
const order = 'ORDER BY f.created_at DESC, f.id DESC';
const sql = `WITH page AS (SELECT f.* FROM files f ${order} LIMIT 10 OFFSET 100) ${fileSelect('NULL', 'page')} ${order}`;
const r = await c.query('EXPLAIN (ANALYZE, BUFFERS) ' + sql);
console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
await c.end();
