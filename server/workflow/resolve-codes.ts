// What the codes read on a file's pages mean, looked up in the database once per file, so the
// split step (pure) can ask synchronously. `t` codes name a page template, `s` codes a template
// page issued to one student, `c` codes a service center.
import type { Database } from '../db/database';
import type { Code } from '../domain/codes';
import type { CodeResolver, ResolvedCode } from '../domain/split';
import { coverCodeMeanings, issuedCodeMeanings, templateCodeMeanings } from '../repositories/printed-codes';

export interface CodeMeanings {
  resolve: CodeResolver;
  /** The page template a sheet-page code names (t and s codes). */
  templateOf(code: Code): string | null;
}

export async function resolveCodes(db: Database, codes: readonly Code[]): Promise<CodeMeanings> {
  const ids = (prefix: string) => [...new Set(codes.filter((c) => c.prefix === prefix).map((c) => c.id))];
  const templateIds = ids('t');
  const issuedIds = ids('s');
  const coverIds = ids('c');

  const sheetRows = [
    ...(templateIds.length === 0 ? [] : await templateCodeMeanings(db, templateIds)),
    ...(issuedIds.length === 0 ? [] : await issuedCodeMeanings(db, issuedIds)),
  ];
  const coverRows = coverIds.length === 0 ? [] : await coverCodeMeanings(db, coverIds);

  const meanings = new Map<string, ResolvedCode>();
  const templates = new Map<string, string>();
  for (const row of sheetRows) {
    const key = `${row.prefix}/${row.code_id}`;
    meanings.set(key, {
      kind: 'sheet_page',
      student_id: row.student_id,
      lesson_id: row.lesson_id,
      lesson_page_number: row.page_number,
      course_id: row.course_id,
    });
    templates.set(key, row.template_id);
  }
  for (const row of coverRows) meanings.set(`c/${row.code_id}`, { kind: 'cover', service_center_id: row.service_center_id });

  return {
    resolve: (code) => meanings.get(`${code.prefix}/${code.id}`) ?? null,
    templateOf: (code) => templates.get(`${code.prefix}/${code.id}`) ?? null,
  };
}
