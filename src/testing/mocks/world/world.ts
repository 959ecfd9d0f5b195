// The mock world: a small programme kept in memory (service centers, congregations, study helpers,
// students, files with their answer sheets and pages, baptism requests, uploads), built from a
// seed so every run starts from the same records, and changed by the calls that change it. The
// answers are views over these rows (world-views.ts), so a count always fits what it counts.
import type { components } from '../../../../generated/api-types';
import { COUNTRIES, CONGREGATIONS, COURSES, EMPLOYMENTS, FIRST_NAMES, HELPER_NAMES, LAST_NAMES, SERVICE_CENTERS } from './names';
import { seededRandom, stableUuid, type Random } from './random';
import { seedReviewFlags } from './review-seed';
import type { CourseRow, FileRow, PageRow, Scenario, ServiceCenterRow, SheetRow, World } from './rows';

export * from './rows';

type S = components['schemas'];

/** The world's "now": every seeded date lies before it, and each change moves it on a minute. */
export const WORLD_START = Date.UTC(2026, 10, 2, 10, 15);

/** The congregation the mock coordinator belongs to (see MOCK_USERS in ../handlers). */
export const HOME_CONGREGATION = { id: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b', wbs_code: 'US 1234', display_name: 'Springfield North' };

const SIZES: Record<Exclude<Scenario, 'empty'>, { centers: number; congregations: number; helpers: number; students: number; files: number; baptism: number; uploads: number }> = {
  default: { centers: 3, congregations: 4, helpers: 10, students: 60, files: 24, baptism: 8, uploads: 6 },
  errors: { centers: 3, congregations: 4, helpers: 10, students: 60, files: 24, baptism: 8, uploads: 6 },
  busy: { centers: 5, congregations: 8, helpers: 12, students: 420, files: 236, baptism: 45, uploads: 40 },
};

const SEEDS: Record<Scenario, number> = { default: 20261102, empty: 1, busy: 7_340_033, errors: 20261102 };

export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const minutesBefore = (minutes: number) => iso(WORLD_START - minutes * 60_000);

/** The world's clock for a change: a minute later than the last one. */
export function tick(world: World): string {
  world.ticks += 1;
  return iso(WORLD_START + world.ticks * 60_000);
}

/** A new record's id: the same for the n-th record made in the same scenario, on every run. */
export function newId(world: World, kind: string): string {
  world.made += 1;
  return stableUuid(`${world.scenario}:${kind}:made:${world.made}`);
}

function seedCourses(): CourseRow[] {
  return COURSES.map((spec, courseIndex) => {
    const courseId = stableUuid(`course:${courseIndex}`);
    const lessons = spec.lessons.map((name, lessonIndex) => ({
      id: stableUuid(`lesson:${courseIndex}:${lessonIndex}`),
      name: `Lesson ${lessonIndex + 1}: ${name}`,
      number: lessonIndex + 1,
      course_id: courseId,
    }));
    const templates = lessons.flatMap((lesson) =>
      Array.from({ length: spec.pagesPerLesson }, (_, page) => ({
        id: stableUuid(`template:${lesson.id}:${page}`),
        name: `${spec.name}, ${lesson.name}, page ${page + 1}`,
        page_number: page + 1,
        lesson,
        code: `C${courseIndex + 1}L${lesson.number}P${page + 1}`,
      })),
    );
    return { course: { id: courseId, name: spec.name, version: spec.version, lessons }, templates };
  });
}

/** An empty world with its reference data (countries, courses) and the coordinator's congregation. */
function baseWorld(scenario: Scenario): World {
  return {
    scenario,
    ticks: 0,
    made: 0,
    countries: [...COUNTRIES].sort((a, b) => a.iso_code.localeCompare(b.iso_code)),
    courses: seedCourses(),
    serviceCenters: [],
    congregations: [{ ...HOME_CONGREGATION, created_at: minutesBefore(60 * 24 * 400) }],
    studyHelpers: [],
    students: [],
    files: [],
    sheets: [],
    pages: [],
    baptismRequests: [],
    uploads: [],
    mends: [],
    runningJobs: [],
    congregationEmails: [],
    mail: [],
    mailSettings: { upload_reports: true },
  };
}

/** Two addresses of the coordinator's congregation, and what the portal mailed them. */
function seedMail(world: World): void {
  world.congregationEmails = ['coordinator@example.org', 'helpers@example.org'].map((email, index) => ({
    id: stableUuid(`congregation-email:${index}`),
    congregationId: HOME_CONGREGATION.id,
    email,
    created_at: minutesBefore(60 * 24 * (90 - index)),
  }));
  const file = world.files[0]?.name ?? 'Batch 1';
  world.mail = [
    { subject: `A packet is ready to print: ${file}`, status: 'sent', error: null },
    { subject: `Reminder: a packet waits: ${file}`, status: 'failed', error: '451 Try again later' },
    { subject: `A return file is ready to download: ${file}`, status: 'not_sent', error: 'not sent: no mail server set' },
  ].map((message, index) => ({
    id: stableUuid(`mail:${index}`),
    to: world.congregationEmails[index % 2]!.email,
    subject: message.subject,
    status: message.status as S['MailStatus'],
    attempts: message.status === 'failed' ? 5 : 1,
    created_at: minutesBefore(60 * (3 + index * 24)),
    sent_at: message.status === 'sent' ? minutesBefore(60 * (3 + index * 24) - 1) : null,
    error: message.error,
  }));
}

function seedServiceCenters(world: World, count: number): void {
  world.serviceCenters = SERVICE_CENTERS.slice(0, count).map((spec, index) => {
    const id = stableUuid(`sc:${index}`);
    return {
      id,
      name: spec.name,
      location: spec.location,
      code: spec.code,
      country: COUNTRIES.find((country) => country.iso_code === spec.country) as S['Country'],
      created_at: minutesBefore(60 * 24 * (380 - index * 20)),
      recruitingPoints: spec.recruitingPoints.map(([name, location], point) => ({ id: stableUuid(`rp:${index}:${point}`), name, location })),
      recruiters: spec.recruiters.map(([name, contact_info], recruiter) => ({ id: stableUuid(`rc:${index}:${recruiter}`), name, contact_info })),
      contactPersons: spec.contactPersons.map((name, person) => ({ id: stableUuid(`cp:${index}:${person}`), name })),
    };
  });
}

function seedPeople(world: World, random: Random, sizes: (typeof SIZES)['default']): void {
  world.congregations.push(
    ...CONGREGATIONS.slice(0, sizes.congregations).map(([wbs_code, display_name], index) => ({
      id: stableUuid(`congregation:${index}`),
      wbs_code,
      display_name,
      created_at: minutesBefore(60 * 24 * (300 - index * 11)),
    })),
  );
  world.studyHelpers = HELPER_NAMES.slice(0, sizes.helpers).map((name, index) => ({
    id: stableUuid(`helper:${index}`),
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.org`,
    // The coordinator's congregation gets every third helper.
    congregationId: (world.congregations[index % 3 === 0 ? 0 : 1 + (index % (world.congregations.length - 1))] as S['Congregation']).id,
    created_at: minutesBefore(60 * 24 * (200 - index * 7)),
    last_active_at: index % 4 === 3 ? null : minutesBefore(60 * (3 + index * 17)),
  }));
  world.students = Array.from({ length: sizes.students }, (_, index) => {
    const center = random.pick(world.serviceCenters);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const congregation = random.chance(0.1) ? null : random.pick(world.congregations);
    const helpers = world.studyHelpers.filter((helper) => helper.congregationId === congregation?.id);
    const helper = helpers.length > 0 && random.chance(0.7) ? random.pick(helpers) : null;
    const recruiter = random.pick(center.recruiters);
    const point = random.pick(center.recruitingPoints);
    const age = random.int(16, 74);
    return {
      id: stableUuid(`student:${index}`),
      human_id: 100_200 + index * 7 + random.int(0, 6),
      country: center.country,
      congregationId: congregation?.id ?? null,
      studyHelperId: helper?.id ?? null,
      serviceCenterId: center.id,
      recruiterId: recruiter.id,
      recruitingPointId: point.id,
      created_at: minutesBefore(60 * 24 * 150 - index * 97),
      attributes: {
        name: `${first} ${last}`,
        address: `${random.int(1, 240)} ${random.pick(['Market Road', 'Church Street', 'Station Road', 'Hill Lane', 'Palm Avenue'])}, ${center.location}`,
        email: random.chance(0.5) ? `${first}.${last}`.toLowerCase().replace(/\s+/g, '') + '@example.org' : null,
        phone: random.chance(0.8) ? `+${random.int(200, 299)} ${random.int(20, 99)} ${random.int(100, 999)} ${random.int(1000, 9999)}` : null,
        birthdate: `${2026 - age}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`,
        age,
        gender: random.pick(['his_Male', 'her_Female', 'their_Prefer Not to Answer'] as const),
        relationship_status: random.pick(['married', 'single', 'divorced', 'widowed', 'separated', 'prefer_not_to_say'] as const),
        employment: random.pick(EMPLOYMENTS),
        has_bible: random.pick(['yes', 'no'] as const),
        study_helper: helper?.name ?? null,
        recruiter: recruiter.name,
        recruiting_point: point.name,
        country: center.country.display_name,
      },
    };
  });
}

type Stage = 'pending' | 'failed' | 'review' | 'assign' | 'send' | 'grading' | 'return' | 'downloaded' | 'archived';
const STAGES: readonly Stage[] = ['grading', 'send', 'assign', 'review', 'return', 'grading', 'downloaded', 'archived', 'send', 'pending', 'failed', 'grading'];

/** A scan's file name as scanners and service centers write them. */
function scanFileName(random: Random, center: ServiceCenterRow, scannedAt: number, index: number): string {
  const date = new Date(scannedAt).toISOString();
  const day = date.slice(0, 10);
  switch (index % 3) {
    case 0:
      return `${center.code}_${day}_batch${String(random.int(1, 12)).padStart(2, '0')}.pdf`;
    case 1:
      return `Scan_${day.replaceAll('-', '')}_${date.slice(11, 19).replaceAll(':', '')}.pdf`;
    default:
      return `${center.location.split(',')[0]} answer sheets ${day}.pdf`;
  }
}

/** Lays out a processed file's sheets and pages (as the pipeline would have found them). */
export function addProcessedSheets(world: World, random: Random, file: FileRow, sheetCount: number): void {
  const { sheets, pages } = processedSheets(world, random, file, sheetCount);
  world.sheets.push(...sheets);
  world.pages.push(...pages);
}

/** The sheets and pages a file's processing finds, without adding them to the world. */
export function processedSheets(world: World, random: Random, file: FileRow, sheetCount: number): { sheets: SheetRow[]; pages: PageRow[] } {
  const found: { sheets: SheetRow[]; pages: PageRow[] } = { sheets: [], pages: [] };
  const students = world.students.filter((student) => student.serviceCenterId === file.serviceCenterId);
  const pool = students.length > 0 ? students : world.students;
  let pageNumber = 1;
  for (let sequence = 1; sequence <= sheetCount; sequence++) {
    const { course, templates } = random.pick(world.courses);
    const lesson = random.pick(course.lessons);
    const student = pool.length > 0 && !random.chance(0.05) ? random.pick(pool) : null;
    const sheet: SheetRow = {
      id: stableUuid(`${file.id}:sheet:${sequence}`),
      fileId: file.id,
      sequence,
      studentId: student?.id ?? null,
      lessonId: lesson.id,
      assignedGroup: student?.congregationId ?? (world.congregations[0] as S['Congregation']).id,
      gradedAt: null,
      is_baptism_request: false,
      duplicateKept: false,
    };
    found.sheets.push(sheet);
    for (const template of templates.filter((candidate) => candidate.lesson.id === lesson.id)) {
      found.pages.push({
        id: stableUuid(`${file.id}:page:${pageNumber}`),
        fileId: file.id,
        sheetId: sheet.id,
        page_number: pageNumber,
        ignored: false,
        templateId: template.id,
        unrecognized_reason: null,
        blank: false,
        flag: null,
        flagDetail: null,
      });
      pageNumber += 1;
    }
  }
  return found;
}

/** Puts a processed file at a stage of its workflow by the records that make a step. */
function stageFile(world: World, random: Random, file: FileRow, stage: Stage, uploadedAt: number): void {
  const sheets = world.sheets.filter((sheet) => sheet.fileId === file.id);
  if (stage === 'review') {
    const page = world.pages.find((candidate) => candidate.fileId === file.id) as PageRow;
    page.templateId = null;
    page.unrecognized_reason = random.pick(['no_code_found', 'unreadable'] as const);
    page.flag = page.unrecognized_reason;
  }
  if (stage === 'review' || stage === 'assign') {
    for (const sheet of sheets) if (random.chance(0.5)) sheet.assignedGroup = null;
    (sheets[sheets.length - 1] as SheetRow).assignedGroup = null;
  }
  if (['grading', 'return', 'downloaded', 'archived'].includes(stage)) {
    file.sent_at = iso(uploadedAt + 26 * 3_600_000);
    file.file_status = 'grading';
    file.printed = random.chance(0.8);
    const graded = stage === 'grading' ? random.int(0, sheets.length - 1) : sheets.length;
    sheets.slice(0, graded).forEach((sheet, index) => {
      sheet.gradedAt = iso(uploadedAt + (5 + index) * 24 * 3_600_000);
    });
    if (stage !== 'grading') file.prepped = true;
    if (stage === 'downloaded' || stage === 'archived') file.file_status = stage;
    if (stage === 'return') file.file_status = null;
  }
}

function seedFiles(world: World, random: Random, count: number, scenario: Scenario): void {
  for (let index = 0; index < count; index++) {
    const center = random.pick(world.serviceCenters);
    // Newest first in index order: about one file every 9 hours back from the world's start.
    const uploadedAt = WORLD_START - (index * 9 + random.int(1, 8)) * 3_600_000;
    const scannedAt = uploadedAt - random.int(1, 3) * 24 * 3_600_000 - random.int(0, 36_000) * 1000;
    let stage = STAGES[index % STAGES.length] as Stage;
    if (scenario === 'errors' && index % 4 === 2) stage = 'failed';
    if (scenario === 'busy' && index < 6) stage = 'pending';
    const file: FileRow = {
      id: stableUuid(`${scenario === 'busy' ? 'busy' : 'world'}:file:${index}`),
      name: scanFileName(random, center, scannedAt, index),
      process_status: stage === 'pending' ? 'pending' : stage === 'failed' ? 'failed' : 'success',
      failure_reason: stage === 'failed' ? 'The file is not a readable PDF.' : null,
      file_status: null,
      printed: false,
      answer_sheet_page_length: 0,
      serviceCenterId: center.id,
      recruitingPointId: random.chance(0.6) ? random.pick(center.recruitingPoints).id : null,
      recruiterId: random.chance(0.6) ? random.pick(center.recruiters).id : null,
      contactPersonId: random.chance(0.4) ? random.pick(center.contactPersons).id : null,
      scanned_at: iso(scannedAt),
      uploaded_at: iso(uploadedAt),
      sent_at: null,
      prepped: false,
    };
    world.files.push(file);
    if (file.process_status === 'pending') world.runningJobs.push(`process_service_center_upload/${file.id}`);
    if (file.process_status !== 'success') continue;
    addProcessedSheets(world, random, file, random.int(2, 9));
    stageFile(world, random, file, stage, uploadedAt);
  }
}

function seedBaptismAndUploads(world: World, random: Random, sizes: (typeof SIZES)['default']): void {
  const withSheets = world.students.filter((student) => world.sheets.some((sheet) => sheet.studentId === student.id));
  for (const [index, student] of withSheets.slice(0, sizes.baptism).entries()) {
    world.baptismRequests.push({
      id: stableUuid(`baptism:${index}`),
      studentId: student.id,
      status: random.pick(['pending', 'pending', 'waiting_on_recruiter', 'waiting_on_service_center', 'missing_info', 'completed'] as const),
      requested_at: minutesBefore(60 * (10 + index * 31)),
    });
    const sheet = world.sheets.find((candidate) => candidate.studentId === student.id);
    if (sheet) sheet.is_baptism_request = true;
  }
  world.uploads = Array.from({ length: sizes.uploads }, (_, index) => {
    const helper = random.pick(world.studyHelpers);
    const intro = index % 3 === 0;
    const surname = helper.name.split(' ').at(-1) as string;
    return {
      id: stableUuid(`upload:${index}`),
      name: intro ? `Intro_${surname}_${random.pick(FIRST_NAMES)}.pdf` : `Graded_${surname}_${minutesBefore(60 * 24 * index).slice(0, 10)}.pdf`,
      congregationId: index % 2 === 0 ? HOME_CONGREGATION.id : helper.congregationId,
      created_at: minutesBefore(60 * (5 + index * 23)),
      is_intro: intro,
      process_status: 'success' as const,
    };
  });
}

/** The world of a scenario, the same on every call. */
export function seedWorld(scenario: Scenario): World {
  const world = baseWorld(scenario);
  if (scenario === 'empty') return world;
  const sizes = SIZES[scenario];
  const random = seededRandom(SEEDS[scenario]);
  seedServiceCenters(world, sizes.centers);
  seedPeople(world, random, sizes);
  seedFiles(world, random, sizes.files, scenario);
  seedReviewFlags(world);
  seedBaptismAndUploads(world, random, sizes);
  seedMail(world);
  return world;
}
