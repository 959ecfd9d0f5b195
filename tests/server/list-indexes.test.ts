// The lists' newest-first pages are read from an index in the lists' own order (migration 010):
// created_at and the id tie-breaker in the same direction, as orderClause writes them. An index
// of (created_at DESC, id ASC) made PostgreSQL sort again every group of equal times up to the
// page. Checked on both databases, with sequential scans priced out so that an index is used
// even on these tests' empty tables.
import { describe, expect, it } from 'vitest';
import { NEWEST_ANSWER_SHEETS_FIRST } from '../../server/repositories/students';
import { planOf, useRouteTests } from './support';

const t = useRouteTests();

const NEWEST_FIRST = [
  { table: 'students', column: 'created_at', index: 'students_created_at_idx' },
  { table: 'files', column: 'created_at', index: 'files_created_at_idx' },
  { table: 'files', column: 'uploaded_at', index: 'files_uploaded_at_idx' },
  { table: 'graded_uploads', column: 'created_at', index: 'graded_uploads_created_at_idx' },
];

describe('newest-first list pages', () => {
  for (const { table, column, index } of NEWEST_FIRST) {
    for (const direction of ['DESC', 'ASC']) {
      it(`${table} by ${column} ${direction}, id ${direction}: one index range, no sort`, async () => {
        const plan = await planOf(
          t.db,
          `SELECT id FROM ${table} ORDER BY ${column} ${direction}, id ${direction} LIMIT $1 OFFSET $2`,
          [10, 20],
        );
        expect(plan).toContain(index);
        expect(plan).not.toMatch(/Sort/);
      });
    }
  }
});

describe("a student's answer sheets, newest first", () => {
  it('are one index range, the latest one read first (every students list row shows it)', async () => {
    const plan = await planOf(
      t.db,
      `SELECT a.id FROM answer_sheets a WHERE a.student_id = $1 ORDER BY ${NEWEST_ANSWER_SHEETS_FIRST} LIMIT 1`,
      ['00000000-0000-4000-8000-000000000000'],
    );
    expect(plan).toContain('answer_sheets_student_idx');
    expect(plan).not.toMatch(/Sort/);
  });
});
