// printed_codes: the codes stamped on paper (a page's `p` code, a student's `s` codes), each
// naming its target (a page, or a page template for one student).
import type { Database } from '../db/database';

export interface PrintedCodeRow {
  target_id: string;
  student_id: string | null;
  code_id: string;
}

/**
 * The first code issued to each of these targets: with `withoutStudent`, the ones for no student
 * (pages), else those for one of `studentIds`.
 */
export async function printedCodesOfTargets(
  db: Database,
  prefix: 'p' | 's',
  targetIds: readonly string[],
  withoutStudent: boolean,
  studentIds: readonly string[],
): Promise<PrintedCodeRow[]> {
  return db.query<PrintedCodeRow>(
    `SELECT DISTINCT ON (target_id, student_id) target_id, student_id, code_id FROM printed_codes
     WHERE prefix = $1 AND target_id = ANY($2::uuid[])
       AND ($3::boolean AND student_id IS NULL OR student_id = ANY($4::uuid[]))
     ORDER BY target_id, student_id, created_at, code_id`,
    [prefix, targetIds, withoutStudent, studentIds],
  );
}

/** Inserts these new codes; a code id already taken is skipped (not returned). */
export async function insertPrintedCodesIfFree(db: Database, prefix: 'p' | 's', codes: readonly PrintedCodeRow[]): Promise<PrintedCodeRow[]> {
  return db.query<PrintedCodeRow>(
    `INSERT INTO printed_codes (code_id, prefix, target_id, student_id)
     SELECT v.code_id, $1, v.target_id, v.student_id FROM unnest($2::text[], $3::uuid[], $4::uuid[]) AS v(code_id, target_id, student_id)
     ON CONFLICT (code_id) DO NOTHING
     RETURNING target_id, student_id, code_id`,
    [prefix, codes.map((code) => code.code_id), codes.map((code) => code.target_id), codes.map((code) => code.student_id)],
  );
}

/** The page a packet page's `p` code names, with what grading needs to know of it. */
export interface PacketPageTarget {
  code_id: string;
  page_id: string;
  /** The congregation the page's answer sheet is assigned to. */
  congregation_id: string | null;
  /** The page's file was sent (and not archived), the page kept and on a sheet. */
  open_for_grading: boolean;
  archived: boolean;
}

export async function packetPageTargets(db: Database, codeIds: readonly string[]): Promise<PacketPageTarget[]> {
  return db.query<PacketPageTarget>(
    `SELECT pc.code_id, p.id AS page_id, a.assigned_group AS congregation_id,
            (f.sent_at IS NOT NULL AND f.file_status IS DISTINCT FROM 'archived' AND NOT p.ignored AND a.id IS NOT NULL) AS open_for_grading,
            f.file_status IS NOT DISTINCT FROM 'archived' AS archived
     FROM printed_codes pc JOIN pages p ON p.id = pc.target_id JOIN files f ON f.id = p.file_id
     LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
     WHERE pc.prefix = 'p' AND pc.code_id = ANY($1::text[])`,
    [codeIds],
  );
}
