// Printed codes: what a scanned `s`, `p` or `c` code leads to, and a service center's one `c`
// code for its cover sheets.
import type { Database } from '../db/database';
import { issuePrintedCode } from '../db/printed-codes';

/** The student a personalised sheet page's `s` code names, when the student still exists. */
export async function studentOfSheetCode(db: Database, codeId: string): Promise<string | null> {
  const row = await db.maybeOne<{ student_id: string | null }>(
    `SELECT pc.student_id FROM printed_codes pc JOIN students s ON s.id = pc.student_id WHERE pc.prefix = 's' AND pc.code_id = $1`,
    [codeId],
  );
  return row?.student_id ?? null;
}

/** The received page a `p` code names, when the page still exists. */
export async function pageOfPageCode(db: Database, codeId: string): Promise<string | null> {
  const row = await db.maybeOne<{ page_id: string }>(
    `SELECT p.id AS page_id FROM printed_codes pc JOIN pages p ON p.id = pc.target_id WHERE pc.prefix = 'p' AND pc.code_id = $1`,
    [codeId],
  );
  return row?.page_id ?? null;
}

/** The service center a cover sheet's `c` code names, when the center still exists. */
export async function serviceCenterOfCoverCode(db: Database, codeId: string): Promise<string | null> {
  const row = await db.maybeOne<{ id: string }>(
    `SELECT sc.id FROM printed_codes pc JOIN service_centers sc ON sc.id = pc.target_id WHERE pc.prefix = 'c' AND pc.code_id = $1`,
    [codeId],
  );
  return row?.id ?? null;
}

/** The center's `c` code, issued on its first cover sheet: every cover sheet it prints is the same. */
export async function coverSheetCodeOfServiceCenter(tx: Database, serviceCenterId: string): Promise<string> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cover-code:' || $1))`, [serviceCenterId]);
  const existing = await tx.maybeOne<{ code_id: string }>(
    `SELECT code_id FROM printed_codes WHERE prefix = 'c' AND target_id = $1 ORDER BY created_at LIMIT 1`,
    [serviceCenterId],
  );
  return existing?.code_id ?? (await issuePrintedCode(tx, { prefix: 'c', targetId: serviceCenterId }));
}
