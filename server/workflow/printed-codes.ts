// The codes stamped on paper the workflow prints: a received page's `p` code (packets, reprints
// of one sheet) and a student's `s` codes on a personalised next-lesson sheet. A target keeps
// the code it was first given, so every print of the same page or sheet reads back the same way.
// Codes are looked up and issued in bulk (a few statements for thousands of pages); a rare id
// collision falls back to issuePrintedCode, which retries.
import type { Database } from '../db/database';
import { issuePrintedCode, newCodeId } from '../db/printed-codes';
import { insertPrintedCodesIfFree, printedCodesOfTargets } from '../repositories/printed-codes';

const BATCH = 500;

/** The `p` code of every page (page id → code id), issuing codes for pages that have none. */
export async function pageCodes(db: Database, pageIds: readonly string[]): Promise<Map<string, string>> {
  const codes = await codesFor(db, 'p', pageIds.map((targetId) => ({ targetId, studentId: null })));
  return new Map([...codes].map(([key, code]) => [key.slice(0, key.indexOf('/')), code]));
}

/** The `s` code of each student's copy of a page template, by issuedKey(student, template). */
export async function issuedSheetCodes(db: Database, copies: readonly { studentId: string; templateId: string }[]): Promise<Map<string, string>> {
  return codesFor(db, 's', copies.map((copy) => ({ targetId: copy.templateId, studentId: copy.studentId })));
}

export function issuedKey(studentId: string, templateId: string): string {
  return `${templateId}/${studentId}`;
}

interface Target {
  targetId: string;
  studentId: string | null;
}

const keyOf = (target: Target) => `${target.targetId}/${target.studentId ?? ''}`;

async function codesFor(db: Database, prefix: 'p' | 's', targets: readonly Target[]): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  const unique = [...new Map(targets.map((target) => [keyOf(target), target])).values()];
  for (let start = 0; start < unique.length; start += BATCH) {
    const batch = unique.slice(start, start + BATCH);
    const wanted = new Set(batch.map(keyOf));
    const existing = await printedCodesOfTargets(
      db,
      prefix,
      [...new Set(batch.map((t) => t.targetId))],
      prefix === 'p',
      [...new Set(batch.flatMap((t) => (t.studentId === null ? [] : [t.studentId])))],
    );
    for (const row of existing) {
      const key = keyOf({ targetId: row.target_id, studentId: row.student_id });
      if (wanted.has(key)) codes.set(key, row.code_id);
    }
    const missing = batch.filter((target) => !codes.has(keyOf(target)));
    if (missing.length === 0) continue;
    const inserted = await insertPrintedCodesIfFree(
      db,
      prefix,
      missing.map((t) => ({ code_id: newCodeId(), target_id: t.targetId, student_id: t.studentId })),
    );
    for (const row of inserted) codes.set(keyOf({ targetId: row.target_id, studentId: row.student_id }), row.code_id);
    for (const target of missing) {
      if (!codes.has(keyOf(target))) codes.set(keyOf(target), await issuePrintedCode(db, { prefix, targetId: target.targetId, studentId: target.studentId }));
    }
  }
  return codes;
}
