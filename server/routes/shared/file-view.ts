// A file as the contract shows it (File), its counts (FileStats), and who may see it: an admin
// sees every file; a coordinator only files sent to its congregation, with that congregation's
// own state of the file, its own sheet count, and no other congregation named.
import type { FastifyRequest } from 'fastify';
import { congregationScope } from '../../auth/session';
import type { Schemas } from '../../contract/types';
import type { Database } from '../../db/database';
import { FILE_NOT_FOUND, forbidden, notFound } from '../../http-error';
import type { PageFlag } from '../../domain/split';
import { fileForView, fileMostSeenBefore, fileStatsCounts, fileVisibleInScope, type FileRow } from '../../repositories/files';

const named = (id: string | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

export function fileOf(row: FileRow): Schemas['File'] {
  return {
    id: row.id,
    name: row.name,
    process_status: row.process_status,
    failure_reason: row.failure_reason,
    file_status: row.file_status,
    grading_complete: row.grading_complete,
    printed: row.printed,
    responses_count: Number(row.responses_count),
    ...(row.page_count === null ? {} : { page_count: row.page_count }),
    answer_sheet_page_length: Number(row.answer_sheet_page_length) as Schemas['AnswerSheetPageLength'],
    service_center:
      row.service_center_id === null
        ? null
        : {
            id: row.service_center_id,
            name: row.service_center_name ?? '',
            ...(row.service_center_country === null
              ? {}
              : { country: { iso_code: row.service_center_country, display_name: row.service_center_country_name ?? row.service_center_country } }),
          },
    recruiting_point: named(row.recruiting_point_id, row.recruiting_point_name),
    recruiter: named(row.recruiter_id, row.recruiter_name),
    service_center_contact_person: named(row.contact_person_id, row.contact_person_name),
    congregations: row.congregations,
    courses: row.courses,
    scanned_at: row.scanned_at === null ? null : new Date(row.scanned_at).toISOString(),
    uploaded_at: new Date(row.uploaded_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
    sent_at: row.sent_at === null ? null : new Date(row.sent_at).toISOString(),
    congregation_file_status: row.congregation_file_status,
  };
}

/**
 * The caller's scope for one file: 404 when the file does not exist, 403 when it was not sent to
 * a coordinator's congregation. Returns the scope (null for an admin).
 */
export async function fileScope(db: Database, request: FastifyRequest, fileId: string): Promise<string | null> {
  const scope = congregationScope(request);
  const visible = await fileVisibleInScope(db, fileId, scope);
  if (visible === null) throw notFound(FILE_NOT_FOUND);
  if (!visible) throw forbidden();
  return scope;
}

export async function loadFile(db: Database, fileId: string, scope: string | null): Promise<Schemas['File']> {
  const row = await fileForView(db, fileId, scope);
  if (row === null) throw notFound(FILE_NOT_FOUND);
  return fileOf(row);
}

/** The file's counts, as the scope sees them (see fileStatsCounts). */
export async function loadFileStats(db: Database, fileId: string, scope: string | null): Promise<Schemas['FileStats']> {
  const row = await fileStatsCounts(db, fileId, scope);
  const flags = row.flags ?? {};
  const flagCount = (flag: PageFlag) => Number(flags[flag] ?? 0);
  const reasons: Schemas['FileStats']['reasons'] = {
    no_code_found: flagCount('no_code_found'),
    unreadable: flagCount('unreadable'),
    unknown_code: flagCount('unknown_code'),
    too_complex: flagCount('too_complex'),
    out_of_order: flagCount('out_of_order'),
    stray_page: flagCount('stray_page'),
    another_course: flagCount('another_course'),
    duplicate_sheet: Number(row.duplicate_sheet),
    blank_back: Number(row.blank_back),
    ambiguous_position: flagCount('ambiguous_position'),
    page_missing: flagCount('page_missing'),
    scanned_twice: flagCount('scanned_twice'),
    already_uploaded: flagCount('already_uploaded'),
    no_sheet: Number(row.no_sheet),
    too_blurred: Number(row.too_blurred),
  };
  return {
    pages: Number(row.pages),
    sheets: Number(row.sheets),
    unrecognized: Number(row.unrecognized),
    mismatched: Number(row.mismatched),
    ignored: Number(row.ignored),
    unassigned: Number(row.unassigned),
    duplicates: Number(row.duplicates),
    missing_student: Number(row.missing_student),
    missing_lesson: Number(row.missing_lesson),
    flagged: Object.values(flags).reduce((sum, n) => sum + Number(n), 0),
    reasons,
    repeat_of: scope === null ? await repeatedFile(db, fileId) : null,
  };
}

/** The earlier file this one is a scan of again: most of its paper (half its non-blank pages) was seen there. */
async function repeatedFile(db: Database, fileId: string): Promise<Schemas['RepeatedFile'] | null> {
  const row = await fileMostSeenBefore(db, fileId);
  if (row === null || row.pages * 2 < row.content) return null;
  return { file_id: row.file_id, name: row.name, pages: row.pages };
}
