// What the codes read on a file's pages mean, looked up in the database once per file, so the
// split step (pure) can ask synchronously. `t` codes name a page template, `s` codes a template
// page issued to one student, `c` codes a service center.
import type { Database } from '../db/database';
import type { Code } from '../domain/codes';
import type { CodeResolver, ResolvedCode } from '../domain/split';

export interface CodeMeanings {
  resolve: CodeResolver;
  /** The page template a sheet-page code names (t and s codes). */
  templateOf(code: Code): string | null;
}

interface TemplateRow {
  code_id: string;
  prefix: 't' | 's';
  template_id: string;
  lesson_id: string;
  page_number: number;
  student_id: string | null;
  course_id: string;
}

export async function resolveCodes(db: Database, codes: readonly Code[]): Promise<CodeMeanings> {
  const ids = (prefix: string) => [...new Set(codes.filter((c) => c.prefix === prefix).map((c) => c.id))];
  const templateIds = ids('t');
  const issuedIds = ids('s');
  const coverIds = ids('c');

  const sheetRows: TemplateRow[] = [];
  if (templateIds.length > 0) {
    // Templates carry their t code themselves; printed_codes may also record it.
    sheetRows.push(
      ...(await db.query<TemplateRow>(
        `SELECT pt.code_id, 't' AS prefix, pt.id AS template_id, pt.lesson_id, pt.page_number, NULL::uuid AS student_id, l.course_id
         FROM page_templates pt JOIN lessons l ON l.id = pt.lesson_id WHERE pt.code_id = ANY($1::text[])
         UNION
         SELECT pc.code_id, 't', pt.id, pt.lesson_id, pt.page_number, NULL::uuid, l.course_id
         FROM printed_codes pc JOIN page_templates pt ON pt.id = pc.target_id JOIN lessons l ON l.id = pt.lesson_id
         WHERE pc.prefix = 't' AND pc.code_id = ANY($1::text[])`,
        [templateIds],
      )),
    );
  }
  if (issuedIds.length > 0) {
    sheetRows.push(
      ...(await db.query<TemplateRow>(
        `SELECT pc.code_id, 's' AS prefix, pt.id AS template_id, pt.lesson_id, pt.page_number, pc.student_id, l.course_id
         FROM printed_codes pc JOIN page_templates pt ON pt.id = pc.target_id JOIN lessons l ON l.id = pt.lesson_id
         WHERE pc.prefix = 's' AND pc.code_id = ANY($1::text[])`,
        [issuedIds],
      )),
    );
  }
  const coverRows =
    coverIds.length === 0
      ? []
      : await db.query<{ code_id: string; service_center_id: string }>(
          `SELECT pc.code_id, sc.id AS service_center_id
           FROM printed_codes pc JOIN service_centers sc ON sc.id = pc.target_id
           WHERE pc.prefix = 'c' AND pc.code_id = ANY($1::text[])`,
          [coverIds],
        );

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
