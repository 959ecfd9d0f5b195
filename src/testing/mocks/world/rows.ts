// The mock world's rows and scenarios: the shapes world.ts seeds and every handler reads.
import type { components } from '../../../../generated/api-types';

type S = components['schemas'];

/** The named worlds a tester switches with `?scenario=`. */
export const SCENARIOS = ['default', 'empty', 'busy', 'errors'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export function isScenario(value: string | null | undefined): value is Scenario {
  return (SCENARIOS as readonly (string | null | undefined)[]).includes(value);
}

export interface ServiceCenterRow {
  id: string;
  name: string;
  location: string;
  country: S['Country'];
  code: string;
  created_at: string;
  recruitingPoints: S['RecruitingPoint'][];
  recruiters: S['Recruiter'][];
  contactPersons: S['ContactPerson'][];
}

export interface StudyHelperRow {
  id: string;
  name: string;
  email: string;
  congregationId: string;
  created_at: string;
  last_active_at: string | null;
}

export interface StudentRow {
  id: string;
  human_id: number;
  country: S['Country'] | null;
  congregationId: string | null;
  studyHelperId: string | null;
  serviceCenterId: string | null;
  recruiterId: string | null;
  recruitingPointId: string | null;
  created_at: string;
  attributes: S['StudentAttributes'];
}

export interface FileRow {
  id: string;
  name: string;
  process_status: S['ProcessStatus'];
  failure_reason: string | null;
  file_status: S['FileStatus'] | null;
  printed: boolean;
  answer_sheet_page_length: S['AnswerSheetPageLength'];
  serviceCenterId: string | null;
  recruitingPointId: string | null;
  recruiterId: string | null;
  contactPersonId: string | null;
  scanned_at: string | null;
  uploaded_at: string;
  sent_at: string | null;
  /** The return file was generated (Download and Regenerate enabled). */
  prepped: boolean;
}

export interface SheetRow {
  id: string;
  fileId: string;
  sequence: number;
  studentId: string | null;
  lessonId: string | null;
  assignedGroup: string | null;
  gradedAt: string | null;
  is_baptism_request: boolean;
  /** A person kept this sheet in Review though it repeats its student's lesson (keep_duplicate). */
  duplicateKept: boolean;
}

export interface PageRow {
  id: string;
  fileId: string;
  sheetId: string | null;
  page_number: number;
  ignored: boolean;
  templateId: string | null;
  unrecognized_reason: S['UnrecognizedReason'] | null;
  /** A blank duplex back (kept ignored, shown as blank_back). */
  blank: boolean;
  /** Why the page waits for a person in Review (cleared by a mend), as the server's pages.flag. */
  flag: PageFlag | null;
  /** What Review is told beside the flag: sheets it could join, the page it copies, pages missing. */
  flagDetail: PageFlagDetail | null;
}

/** The review reasons that flag a page; duplicate_sheet and blank_back are shown but hold nothing. */
export type PageFlag = Exclude<S['ReviewReason'], 'duplicate_sheet' | 'blank_back'>;

export interface PageFlagDetail {
  candidateSheetIds?: string[];
  copyOfPageId?: string;
  missingPages?: number[];
}

/** A mend made in Review, shown on its page (the last one) and counted (turns). */
export interface MendRow {
  pageId: string;
  action: S['ReviewMendAction'];
  by: string;
  at: string;
}

export interface BaptismRow {
  id: string;
  studentId: string;
  status: S['BaptismStatus'];
  requested_at: string;
}

export interface UploadRow {
  id: string;
  name: string;
  congregationId: string;
  created_at: string;
  is_intro: boolean;
  process_status: S['ProcessStatus'];
  /** Photos uploaded: one page each (a PDF's pages are counted from its name). */
  pages?: number;
}

export interface CourseRow {
  course: S['Course'] & { lessons: S['Lesson'][] };
  templates: S['PageTemplate'][];
}

export interface World {
  scenario: Scenario;
  /** Minutes the world's clock has moved since WORLD_START (one per change). */
  ticks: number;
  /** How many records the world has made since it was seeded (their ids come from this). */
  made: number;
  countries: S['Country'][];
  courses: CourseRow[];
  serviceCenters: ServiceCenterRow[];
  congregations: S['Congregation'][];
  studyHelpers: StudyHelperRow[];
  students: StudentRow[];
  files: FileRow[];
  sheets: SheetRow[];
  pages: PageRow[];
  baptismRequests: BaptismRow[];
  uploads: UploadRow[];
  /** Review's mends, oldest first. */
  mends: MendRow[];
  /** Job runs started and not yet streamed to their end, by "group_name/run_id". */
  runningJobs: string[];
  /** Each congregation's e-mail addresses (the Emails tile). */
  congregationEmails: CongregationEmailRow[];
  /** The mail record, newest first, and the signed-in user's e-mail settings. */
  mail: S['MailMessage'][];
  mailSettings: S['MailSettings'];
}

export type CongregationEmailRow = S['CongregationEmail'] & { congregationId: string };
