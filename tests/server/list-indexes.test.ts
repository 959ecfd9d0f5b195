// The lists' newest-first pages are read from an index in the lists' own order (migration 010):
// created_at and the id tie-breaker in the same direction, as orderClause writes them. An index
// of (created_at DESC, id ASC) made PostgreSQL sort again every group of equal times up to the
// page. Checked on both databases, with sequential scans priced out so that an index is used
// even on these tests' empty tables.
import { describe, expect, it } from 'vitest';
import { useRouteTests } from './support';

const t = useRouteTests();

async function planOf(sql: string): Promise<string> {
  return t.db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [10, 20]);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

const NEWEST_FIRST = [
  { table: 'students', column: 'created_at', index: 'students_created_at_idx' },
  { table: 'files', column: 'created_at', index: 'files_created_at_idx' },
  { table: 'files', column: 'uploaded_at', index: 'files_uploaded_at_idx' },
  { table: 'feedback_uploads', column: 'created_at', index: 'feedback_uploads_created_at_idx' },
];

describe('newest-first list pages', () => {
  for (const { table, column, index } of NEWEST_FIRST) {
    for (const direction of ['DESC', 'ASC']) {
      it(`${table} by ${column} ${direction}, id ${direction}: one index range, no sort`, async () => {
        const plan = await planOf(
          `SELECT id FROM ${table} ORDER BY ${column} ${direction}, id ${direction} LIMIT $1 OFFSET $2`,
        );
        expect(plan).toContain(index);
        expect(plan).not.toMatch(/Sort/);
      });
    }
  }
});
