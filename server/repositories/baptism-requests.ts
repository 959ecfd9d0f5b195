// Baptism requests: the list (newest first), one request as the contract shows it, making one
// (one per student) and deleting a pending one made by mistake.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import type { Page } from './sql/paging';
import { Where } from './sql/where';

// The student's own service center and recruiter; failing those, the ones of the file the
// request's answer sheet came in.
const BAPTISM_REQUEST_SELECT = `
  SELECT b.id, b.status, b.requested_at, s.id AS student_id, s.human_id, s.attributes,
         COALESCE(sc.name, fsc.name) AS service_center_name, COALESCE(r.name, fr.name) AS recruiter_name
  FROM baptism_requests b
  JOIN students s ON s.id = b.student_id
  LEFT JOIN service_centers sc ON sc.id = s.service_center_id
  LEFT JOIN recruiters r ON r.id = s.recruiter_id
  LEFT JOIN answer_sheets a ON a.id = b.answer_sheet_id
  LEFT JOIN files f ON f.id = a.file_id
  LEFT JOIN service_centers fsc ON fsc.id = f.service_center_id
  LEFT JOIN recruiters fr ON fr.id = f.recruiter_id`;

export interface BaptismRequestRow {
  id: string;
  status: Schemas['BaptismStatus'];
  requested_at: Date;
  student_id: string;
  human_id: number;
  attributes: Schemas['StudentAttributes'];
  service_center_name: string | null;
  recruiter_name: string | null;
}

/** A page of baptism requests, newest first, of one congregation's students (or, null, all). */
export async function baptismRequestPage(db: Database, scope: string | null, page: Page): Promise<{ rows: BaptismRequestRow[]; total: number }> {
  const where = new Where().addIf(scope, (p) => `s.congregation_id = ${p}`);
  const { total } = await db.one<{ total: number }>(
    `SELECT count(*) AS total FROM baptism_requests b JOIN students s ON s.id = b.student_id ${where.sql}`,
    where.params,
  );
  const rows = await db.query<BaptismRequestRow>(
    `${BAPTISM_REQUEST_SELECT} ${where.sql}
     ORDER BY b.requested_at DESC, b.id DESC LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total };
}

export function baptismRequestRowById(db: Database, id: string): Promise<BaptismRequestRow> {
  return db.one<BaptismRequestRow>(`${BAPTISM_REQUEST_SELECT} WHERE b.id = $1`, [id]);
}

/**
 * The new request's id, or null when the student has one already (ON CONFLICT: the unique
 * student_id decides, even for two requests at the same moment).
 */
export async function insertBaptismRequestUnlessAny(db: Database, studentId: string, sheetId: string): Promise<string | null> {
  const created = await db.maybeOne<{ id: string }>(
    `INSERT INTO baptism_requests (student_id, answer_sheet_id) VALUES ($1, $2)
     ON CONFLICT (student_id) DO NOTHING RETURNING id`,
    [studentId, sheetId],
  );
  return created?.id ?? null;
}

/** Locks the request for its delete; null when there is none. */
export function lockBaptismRequest(tx: Database, id: string): Promise<{ student_id: string; status: Schemas['BaptismStatus'] } | null> {
  return tx.maybeOne<{ student_id: string; status: Schemas['BaptismStatus'] }>('SELECT student_id, status FROM baptism_requests WHERE id = $1 FOR UPDATE', [id]);
}

export async function deleteBaptismRequest(tx: Database, id: string): Promise<void> {
  await tx.query('DELETE FROM baptism_requests WHERE id = $1', [id]);
}
