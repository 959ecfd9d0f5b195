// Contract-shaped records for the files, responses and pages tests.
import type { AnswerSheet, File, FileStats, Page, PageTemplate, Student } from '../../../generated/hooks/model';

export const FILE_ID = 'f0000000-0000-4000-8000-000000000001';

export function fileRecord(overrides: Partial<File> = {}): File {
  return {
    id: FILE_ID,
    name: 'Accra batch March',
    process_status: 'success',
    failure_reason: null,
    file_status: null,
    grading_complete: false,
    printed: false,
    responses_count: 12,
    page_count: 30,
    answer_sheet_page_length: 0,
    service_center: { id: 'sc000000-0000-4000-8000-000000000001', name: 'Accra Center', country: { iso_code: 'GH', display_name: 'Ghana' } },
    recruiting_point: null,
    recruiter: null,
    service_center_contact_person: null,
    congregations: [{ id: 'c0000000-0000-4000-8000-000000000001', wbs_code: 'US 1234' }],
    courses: [{ id: 'co000000-0000-4000-8000-000000000001', name: 'Search the Scriptures' }],
    scanned_at: '2024-03-01T09:00:00Z',
    uploaded_at: '2024-03-02T10:00:00Z',
    created_at: '2024-03-02T10:00:00Z',
    sent_at: null,
    congregation_file_status: null,
    ...overrides,
  };
}

export function statsRecord(overrides: Partial<FileStats> = {}): FileStats {
  return {
    pages: 30,
    sheets: 12,
    unrecognized: 0,
    mismatched: 0,
    ignored: 0,
    unassigned: 0,
    duplicates: 0,
    missing_student: 0,
    missing_lesson: 0,
    flagged: 0,
    reasons: { no_code_found: 0, unreadable: 0, unknown_code: 0, out_of_order: 0, stray_page: 0, another_course: 0, duplicate_sheet: 0, blank_back: 0, ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0, no_sheet: 0, too_blurred: 0 },
    ...overrides,
  };
}

export const LESSON_1 = { id: 'l0000000-0000-4000-8000-000000000001', name: 'Lesson 1: The Bible', number: 1, course_id: 'co000000-0000-4000-8000-000000000001' };
export const LESSON_2 = { id: 'l0000000-0000-4000-8000-000000000002', name: 'Lesson 2: God', number: 2, course_id: 'co000000-0000-4000-8000-000000000001' };

export function responseRecord(overrides: Partial<AnswerSheet> = {}): AnswerSheet {
  return {
    id: 'a5000000-0000-4000-8000-000000000001',
    file_id: FILE_ID,
    file: { name: 'Accra batch March', uploaded_at: '2024-03-02T10:00:00Z' },
    student: { id: 's0000000-0000-4000-8000-000000000001', human_id: 100234, name: 'Ada Mensah', study_helper: null },
    lesson: LESSON_1,
    course: { id: 'co000000-0000-4000-8000-000000000001', name: 'Search the Scriptures' },
    congregation: { id: 'c0000000-0000-4000-8000-000000000001', wbs_code: 'US 1234' },
    graded: false,
    assigned_group: 'c0000000-0000-4000-8000-000000000001',
    is_baptism_request: false,
    ...overrides,
  };
}

export function templateRecord(lesson: typeof LESSON_1, page: number): PageTemplate {
  return { id: `t${lesson.number}-${page}`, name: `${lesson.name}, page ${page}`, page_number: page, lesson };
}

export function pageRecord(overrides: Partial<Page> = {}): Page {
  return {
    id: 'p0000000-0000-4000-8000-000000000001',
    file_id: FILE_ID,
    page_number: 1,
    ignored: false,
    template: templateRecord(LESSON_1, 1),
    answer_sheet: {
      id: 'a5000000-0000-4000-8000-000000000001',
      student: { id: 's0000000-0000-4000-8000-000000000001', human_id: 100234, name: 'Ada Mensah' },
      lesson: LESSON_1,
      congregation: { id: 'c0000000-0000-4000-8000-000000000001', wbs_code: 'US 1234' },
      assigned_group: 'c0000000-0000-4000-8000-000000000001',
    },
    feedback_pages: [],
    ...overrides,
  };
}

export function studentRecord(overrides: Partial<Student> = {}): Student {
  return {
    id: 's0000000-0000-4000-8000-000000000001',
    human_id: 100234,
    name: 'Ada Mensah',
    country: { iso_code: 'GH', display_name: 'Ghana' },
    congregation_id: 'c0000000-0000-4000-8000-000000000001',
    congregation: { id: 'c0000000-0000-4000-8000-000000000001', wbs_code: 'US 1234' },
    study_helper: null,
    latest_answer_sheet: null,
    created_at: '2024-03-05T12:00:00Z',
    attributes: {
      name: 'Ada Mensah',
      address: '12 Market Road',
      email: null,
      phone: '+233 20 000 0000',
      age: 31,
      gender: 'her_Female',
      relationship_status: 'single',
      has_bible: 'yes',
      recruiter: 'Brother Kofi',
      recruiting_point: 'Kumasi Market',
      country: 'Ghana',
    },
    ...overrides,
  };
}
