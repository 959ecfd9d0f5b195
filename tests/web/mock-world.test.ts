// The mock world that `npm run dev:mock` and the web tests run on (src/testing/mocks/world): every
// GET of the contract answered with data its schema allows, the same on every request and every
// run; created and changed records show in their lists; paging and totals agree; counts fit what
// they count; scan-like file names; the scenarios; progress as text/event-stream.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contract } from '../../server/contract/contract';
import { mockWorld, server, signInAs, useScenario } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID } from '../../src/testing/mocks/handlers';
import { seedWorld, SCENARIOS } from '../../src/testing/mocks/world/world';

const BASE = 'http://localhost';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  useScenario('default');
  signInAs('admin');
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; type: string; body: unknown }> {
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  return { status: response.status, type, body: type.includes('json') && text !== '' ? JSON.parse(text) : text };
}

const get = async <T>(path: string): Promise<T> => {
  const answer = await call('GET', path);
  expect(answer.status, `GET ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body as T;
};

interface Listed {
  items: { id: string; name?: string }[];
  total: number;
  skip: number;
  limit: number;
}

/** Every row of a paged list, page by page, checking each page against its total. */
async function allPages(path: string, limit = 10): Promise<Listed['items']> {
  const rows: Listed['items'] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let skip = 0; ; skip += limit) {
    const page = await get<Listed>(`${path}${join}skip=${skip}&limit=${limit}`);
    expect(page.skip).toBe(skip);
    expect(page.limit).toBe(limit);
    expect(page.items.length).toBe(Math.max(0, Math.min(limit, page.total - skip)));
    rows.push(...page.items);
    if (skip + limit >= page.total) {
      expect(rows).toHaveLength(page.total);
      expect(new Set(rows.map((row) => JSON.stringify(row))).size).toBe(page.total);
      return rows;
    }
  }
}

/** Answers a file's Review through the API as a person would: ignores each flagged page, keeps each duplicate. */
async function settleReview(fileId: string): Promise<void> {
  const sheets = () => get<{ items: { id: string; duplicate?: boolean; duplicate_kept?: boolean }[] }>(`/api/answer-sheets?file=${fileId}&limit=100`);
  for (const sheet of (await sheets()).items) {
    for (const page of await get<{ id: string; flagged?: boolean }[]>(`/api/answer-sheets/${sheet.id}/pages`)) {
      if (page.flagged) expect((await call('PATCH', `/api/pages/${page.id}`, { ignored: true })).status).toBe(200);
    }
  }
  for (const sheet of (await sheets()).items) {
    if (sheet.duplicate && !sheet.duplicate_kept) expect((await call('PATCH', `/api/answer-sheets/${sheet.id}`, { keep_duplicate: true })).status).toBe(200);
  }
}

/** "Showing X to Y of Z results" as the pagination would write it for a page. */
const showing = (page: Listed) => `Showing ${page.total === 0 ? 0 : page.skip + 1} to ${page.skip + page.items.length} of ${page.total} results`;

/** Values for a path's parameters, taken from the world. */
function pathFor(path: string): string {
  const world = mockWorld.world();
  const sent = world.files.find((file) => file.sent_at !== null)!;
  const sheet = world.sheets.find((row) => row.fileId === sent.id)!;
  const page = world.pages.find((row) => row.sheetId === sheet.id)!;
  const course = world.courses[0]!.course;
  const values: Record<string, string> = {
    file_id: sent.id,
    id: '',
    sheet_id: sheet.id,
    response_id: sheet.id,
    page_id: page.id,
    iso_code: 'GH',
    lesson_id: course.lessons[0]!.id,
    service_center_id: world.serviceCenters[0]!.id,
    group_name: 'send_to_study_helpers',
    run_id: sent.id,
  };
  // {id} means a different record on each path.
  const idFor = (prefix: string) => {
    if (prefix.startsWith('/api/files')) return sent.id;
    if (prefix.startsWith('/api/students')) return world.students[0]!.id;
    if (prefix.startsWith('/api/study-helper/') || prefix.startsWith('/api/study-helpers/{id}')) return world.studyHelpers[0]!.id;
    if (prefix.startsWith('/api/answer-sheets')) return sheet.id;
    if (prefix.startsWith('/api/service')) return world.serviceCenters[0]!.id;
    if (prefix.startsWith('/api/congregations')) return DEMO_CONGREGATION_ID;
    if (prefix.startsWith('/api/courses')) return course.id;
    if (prefix.startsWith('/api/progress')) return sent.id;
    if (prefix.startsWith('/api/uploads')) return world.uploads[0]!.id;
    return '';
  };
  return path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? idFor(path) : (values[name] ?? '')));
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

const jsonReads = contract()
  .operations.filter((op) => op.method.toUpperCase() === 'GET' && op.responses['200']?.['application/json'] !== undefined)
  .filter((op) => !op.path.includes('distributed-files'));

describe('the mock world answers every read of the contract', () => {
  it.each(jsonReads.map((op) => [op.operationId, op] as const))('%s: contract-shaped, the same twice', async (_id, op) => {
    let path = pathFor(op.path);
    if (op.path.startsWith('/api/uploads/resumable/')) {
      // The world keeps no unfinished uploads: start one to read.
      const meta = (key: string, value: string) => `${key} ${btoa(value)}`;
      const started = await fetch(`${BASE}/api/uploads/resumable`, {
        method: 'POST',
        headers: { 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': [meta('kind', 'graded'), meta('name', 'A read')].join(',') },
      });
      path = started.headers.get('location')!;
    }
    const first = await call('GET', path);
    const second = await call('GET', path);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.type).toContain('application/json');
    const validate = ajv.compile(op.responses['200']!['application/json']!);
    expect(validate(first.body), ajv.errorsText(validate.errors)).toBe(true);
    expect(second).toEqual(first);
  });

  it('builds the same world on every run, for every scenario', () => {
    for (const scenario of SCENARIOS) expect(JSON.stringify(seedWorld(scenario))).toBe(JSON.stringify(seedWorld(scenario)));
  });

  it('answers the same after a reset as before', async () => {
    const before = await get<Listed>('/api/files?limit=50');
    await call('PATCH', `/api/file/${before.items[0]!.id}`, { name: 'Renamed.pdf' });
    useScenario('default');
    expect(await get<Listed>('/api/files?limit=50')).toEqual(before);
  });

  it('serves distributed packets of sent files', async () => {
    const sent = mockWorld.world().files.find((file) => file.sent_at !== null)!;
    const [packet] = await get<{ packet_id: string }[]>(`/api/file/${sent.id}/congregations`);
    expect(await get(`/api/study-helpers/distributed-files/${packet!.packet_id}/exists`)).toEqual({ exists: true });
    const download = await call('GET', `/api/study-helpers/distributed-files/${packet!.packet_id}.pdf`);
    expect(download.type).toBe('application/pdf');
    expect(String(download.body).startsWith('%PDF-')).toBe(true);
  });
});

describe('paging and totals', () => {
  it.each([
    '/api/files',
    '/api/files?file_state=grading',
    '/api/students',
    '/api/students?country=GH',
    '/api/study-helpers',
    '/api/congregations',
    '/api/service_centers',
    '/api/baptism-requests',
    '/api/uploads/',
    '/api/countries',
    '/api/answer-sheets?graded=true',
  ])('%s: every page fits its total', async (path) => {
    const rows = await allPages(path);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('"Showing 1 to 10 of N" is true over the rows', async () => {
    const first = await get<Listed>('/api/files?skip=0&limit=10');
    const world = mockWorld.world();
    expect(showing(first)).toBe(`Showing 1 to 10 of ${world.files.length} results`);
    const last = await get<Listed>(`/api/files?skip=${first.total - 3}&limit=10`);
    expect(showing(last)).toBe(`Showing ${first.total - 2} to ${first.total} of ${first.total} results`);
  });

  it('a filter keeps only the rows it names, and its total counts them', async () => {
    const rows = (await allPages('/api/files?file_state=failed')) as { process_status?: string }[];
    expect(rows.every((row) => row.process_status === 'failed')).toBe(true);
    const ghana = (await allPages('/api/students?country=GH')) as { country?: { iso_code: string } }[];
    expect(ghana.every((row) => row.country?.iso_code === 'GH')).toBe(true);
  });

  it('counts fit what they count', async () => {
    const files = (await allPages('/api/files')) as unknown as { id: string; process_status: string; responses_count: number; page_count: number }[];
    for (const file of files.filter((row) => row.process_status === 'success').slice(0, 6)) {
      const sheets = await get<Listed>(`/api/answer-sheets?file=${file.id}&limit=1`);
      const stats = await get<{ pages: number; sheets: number }>(`/api/file/${file.id}/stats`);
      const steps = await get<{ total: number; complete: number }>(`/api/file/${file.id}/steps`);
      expect(sheets.total).toBe(file.responses_count);
      expect(stats.sheets).toBe(file.responses_count);
      expect(stats.pages).toBe(file.page_count);
      expect(steps.total).toBe(file.responses_count);
      expect(steps.complete).toBeLessThanOrEqual(steps.total);
    }
    const stats = await get<{ all_files_count: number }>(`/api/congregations/${DEMO_CONGREGATION_ID}/stats`);
    // The congregation's count is of the files sent to it (those its coordinator lists).
    const groupFiles = (await allPages(`/api/files?group_id=${DEMO_CONGREGATION_ID}`)) as unknown as { sent_at: string | null }[];
    expect(groupFiles.filter((file) => file.sent_at !== null).length).toBe(stats.all_files_count);
    const helpers = (await allPages('/api/study-helpers')) as unknown as { id: string; student_count: number }[];
    for (const helper of helpers.slice(0, 4)) {
      expect((await get<Listed>(`/api/study-helper/${helper.id}/students`)).total).toBe(helper.student_count);
    }
  });

  it('a coordinator sees only its congregation, and its counts agree with its lists', async () => {
    signInAs('coordinator');
    const files = (await allPages('/api/files')) as unknown as { congregations: { id: string }[] }[];
    expect(files.every((file) => file.congregations.some((congregation) => congregation.id === DEMO_CONGREGATION_ID))).toBe(true);
    const stats = await get<{ all_files_count: number; ready_to_print_count: number }>(`/api/congregations/${DEMO_CONGREGATION_ID}/stats`);
    expect(files).toHaveLength(stats.all_files_count);
    expect((await get<Listed>('/api/files?congregation_file_state=unprinted')).total).toBe(stats.ready_to_print_count);
    const students = (await allPages('/api/students')) as unknown as { congregation_id: string }[];
    expect(students.every((student) => student.congregation_id === DEMO_CONGREGATION_ID)).toBe(true);
    // A file's counts are the congregation's too, as its row in the list says.
    for (const file of (files as unknown as { id: string; responses_count: number }[]).slice(0, 6)) {
      expect((await get<{ sheets: number }>(`/api/file/${file.id}/stats`)).sheets).toBe(file.responses_count);
      expect((await get<{ total: number }>(`/api/file/${file.id}/steps`)).total).toBe(file.responses_count);
    }
  });
});

describe('realistic records', () => {
  it('names files as scans are named', async () => {
    const files = await allPages('/api/files', 100);
    for (const file of files) {
      expect(file.name).toMatch(/^([A-Z]{3}_\d{4}-\d{2}-\d{2}_batch\d{2}|Scan_\d{8}_\d{6}|[A-Z][A-Za-z ]+ answer sheets \d{4}-\d{2}-\d{2})\.pdf$/);
    }
  });

  it('spreads files over the workflow', async () => {
    const states = ['processing', 'failed', 'review', 'ready_to_send', 'grading', 'return', 'downloaded', 'archived'];
    for (const state of states) expect((await get<Listed>(`/api/files?file_state=${state}`)).total, state).toBeGreaterThan(0);
  });
});

describe('a stateful world', () => {
  it('mends in Review as the server does: a flagged page moved clears its flag, sheets started and joined, none once sent', async () => {
    const world = mockWorld.world();
    const flagged = world.pages.find((page) => page.sheetId !== null && !page.ignored && page.unrecognized_reason !== null && page.templateId === null);
    expect(flagged).toBeTruthy();
    const file = world.files.find((row) => row.id === flagged!.fileId)!;
    expect(file.sent_at).toBeNull();
    type Sheets = { items: { id: string; page_count: number }[]; total: number };
    const sheetsOf = () => get<Sheets>(`/api/answer-sheets?file=${file.id}&limit=100`);
    const before = await sheetsOf();
    const other = before.items.find((sheet) => sheet.id !== flagged!.sheetId)!;
    const moved = await call('PATCH', `/api/pages/${flagged!.id}`, { answer_sheet: other.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ flagged: false, answer_sheet: { id: other.id } });
    // A new sheet at the second page of a sheet of two or more.
    const count = (await sheetsOf()).total;
    const sheetOfTwo = world.sheets.find((sheet) => sheet.fileId === file.id && world.pages.filter((page) => page.sheetId === sheet.id).length >= 2)!;
    const second = world.pages.filter((page) => page.sheetId === sheetOfTwo.id).sort((a, b) => a.page_number - b.page_number)[1]!;
    expect((await call('PATCH', `/api/pages/${second.id}`, { new_sheet: true })).status).toBe(200);
    const afterStart = await sheetsOf();
    expect(afterStart.total).toBe(count + 1);
    expect((await call('PATCH', `/api/pages/${second.id}`, { new_sheet: true })).status).toBe(400);
    const last = afterStart.items.at(-1)!;
    const joined = await call('PATCH', `/api/answer-sheets/${last.id}`, { join_previous: true });
    expect(joined.status).toBe(200);
    expect((await sheetsOf()).items.map((sheet) => sheet.id)).not.toContain(last.id);
    expect((await call('PATCH', `/api/pages/${flagged!.id}`, { code: 'hello' })).status).toBe(400);
    const sentFile = world.files.find((row) => row.sent_at !== null)!;
    const sentPage = world.pages.find((page) => page.fileId === sentFile.id && page.sheetId !== null)!;
    const refused = await call('PATCH', `/api/pages/${sentPage.id}`, { new_sheet: true });
    expect(refused).toMatchObject({ status: 409, body: { detail: { error_type: 'SHEET_ALREADY_SENT' } } });
  });

  it('shows a created congregation, service center and study helper in their lists', async () => {
    const before = await get<Listed>('/api/congregations?limit=100');
    const created = await call('POST', '/api/congregations', { wbs_code: 'VA 22301', display_name: 'Del Ray Church of Christ' });
    expect(created.status).toBe(201);
    const after = await get<Omit<Listed, "items"> & { items: { wbs_code: string }[] }>('/api/congregations?limit=100');
    expect(after.total).toBe(before.total + 1);
    expect(after.items.map((row) => row.wbs_code)).toContain('VA 22301');

    const center = await call('POST', '/api/service_centers', { name: 'Lusaka Study Office', country: 'ZM', location: 'Lusaka' });
    expect(center.status).toBe(201);
    expect((await get<Listed>('/api/service_centers?name=Lusaka')).items.map((row) => row.name)).toEqual(['Lusaka Study Office']);

    const helper = await call('POST', `/api/congregations/${DEMO_CONGREGATION_ID}/study-helpers`, { name: 'Ruth Ellison', email: 'helper@example.org' });
    expect(helper.status).toBe(201);
    expect((await get<Listed>(`/api/congregations/${DEMO_CONGREGATION_ID}/study-helpers?name=Ruth`)).items.map((row) => row.name)).toEqual(['Ruth Ellison']);
  });

  it('shows an uploaded file first in the files list, processed once its progress stream ends', async () => {
    const before = await get<Listed>('/api/files');
    const form = new FormData();
    form.set('name', 'ACC_2026-11-01_batch01.pdf');
    form.set('answer_sheet_page_length', '0');
    form.set('scanned_at', '2026-11-01T08:00:00.000Z');
    form.set('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'ACC_2026-11-01_batch01.pdf');
    const created = await fetch(`${BASE}/api/file`, { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const after = await get<Listed & { items: { id: string; process_status: string }[] }>('/api/files');
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]).toMatchObject({ id, name: 'ACC_2026-11-01_batch01.pdf', process_status: 'pending' });

    const again = await fetch(`${BASE}/api/file`, { method: 'POST', body: form });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ detail: { error_type: 'DUPLICATE_FILE' } });

    const messages = await progress(`/api/progress/process_service_center_upload/${id}`);
    expect(messages.at(-1)).toMatchObject({ status: 'success' });
    const file = await get<{ process_status: string; responses_count: number; page_count: number }>(`/api/file/${id}`);
    expect(file.process_status).toBe('success');
    expect(file.page_count).toBe(messages.at(-1)!.count);
    expect((await get<Listed>(`/api/answer-sheets?file=${id}`)).total).toBe(file.responses_count);
    expect(file.responses_count).toBeGreaterThan(1);
  });

  it('takes photos of pages as the contract says: 1 to 50 images, no PDF among them, a page each', async () => {
    signInAs('coordinator');
    const photos = (count: number, extra: Blob[] = []) => {
      const form = new FormData();
      form.set('name', `${count} photos of graded sheets`);
      for (let i = 1; i <= count; i += 1) form.append('file', new Blob([new Uint8Array(10)], { type: 'image/jpeg' }), `image.jpg`);
      for (const blob of extra) form.append('file', blob, 'scan.pdf');
      return fetch(`${BASE}/api/study-helpers/file`, { method: 'POST', body: form });
    };
    const taken = await photos(3);
    expect(taken.status).toBe(201);
    const { id } = (await taken.json()) as { id: string };
    expect((await get<{ summary: { pages_read: number } }>(`/api/uploads/${id}`)).summary.pages_read).toBe(3);
    for (const refused of [await photos(51), await photos(2, [new Blob(['%PDF-1.4'], { type: 'application/pdf' })])]) {
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ detail: { error_type: 'VALIDATION_ERROR', message: expect.any(String) } });
    }
  });

  it('moves a file through its steps as its records change', async () => {
    const world = mockWorld.world();
    const file = world.files.find((row) => row.process_status === 'success' && row.sent_at === null && world.pages.some((page) => page.fileId === row.id && page.templateId === null))!;
    const steps = () => get<{ step: string }>(`/api/file/${file.id}/steps`);
    expect((await steps()).step).toBe('review');
    await settleReview(file.id);
    expect((await steps()).step).toBe('assign');
    expect((await get<{ unassigned: number }>(`/api/file/${file.id}/stats`)).unassigned).toBeGreaterThan(0);
    expect((await call('PATCH', `/api/answer-sheets?file=${file.id}`, { assigned_group: DEMO_CONGREGATION_ID })).status).toBe(200);
    expect((await steps()).step).toBe('send');
    expect((await call('POST', `/api/file/${file.id}/send`)).status).toBe(202);
    expect((await steps()).step).toBe('grading');
    expect((await call('DELETE', `/api/file/${file.id}`)).status).toBe(409);
    signInAs('coordinator');
    expect((await get<Listed>('/api/files?congregation_file_state=unprinted&limit=100')).items.map((row) => row.id)).toContain(file.id);
  });

  it('renames and deletes a file in its list', async () => {
    const file = mockWorld.world().files.find((row) => row.sent_at === null)!;
    await call('PATCH', `/api/file/${file.id}`, { name: 'Scan_20261030_101500.pdf' });
    expect((await get<Listed>('/api/files?query_name=Scan_20261030_101500')).items.map((row) => row.id)).toEqual([file.id]);
    const total = (await get<Listed>('/api/files')).total;
    expect((await call('DELETE', `/api/file/${file.id}`)).status).toBe(204);
    expect((await get<Listed>('/api/files')).total).toBe(total - 1);
    expect((await call('GET', `/api/file/${file.id}`)).status).toBe(404);
  });

  it('adds a baptism request to its list, once per student', async () => {
    const world = mockWorld.world();
    const student = world.students.find((row) => world.sheets.some((sheet) => sheet.studentId === row.id) && !world.baptismRequests.some((request) => request.studentId === row.id))!;
    const before = await get<Listed>('/api/baptism-requests');
    expect((await call('POST', '/api/baptism-request', { student_id: student.human_id })).status).toBe(201);
    const after = await get<Listed & { items: { student: { human_id: number } }[] }>('/api/baptism-requests');
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]!.student.human_id).toBe(student.human_id);
    expect((await call('POST', '/api/baptism-request', { student_id: student.human_id })).status).toBe(409);
    expect((await call('POST', '/api/baptism-request', { student_id: 1 })).status).toBe(404);
  });

  it("names a student's latest lesson from sent files only, as the server (not one still in Review)", async () => {
    const world = mockWorld.world();
    const unsent = world.sheets.find((sheet) => sheet.studentId !== null && world.files.find((file) => file.id === sheet.fileId)!.sent_at === null);
    expect(unsent, 'a student with a response in a file not sent').toBeDefined();
    const sentUploads = world.sheets
      .filter((sheet) => sheet.studentId === unsent!.studentId)
      .map((sheet) => world.files.find((file) => file.id === sheet.fileId)!)
      .filter((file) => file.sent_at !== null)
      .map((file) => file.uploaded_at)
      .sort();
    const student = await get<{ latest_answer_sheet: { file: { uploaded_at: string } } | null }>(`/api/students/${unsent!.studentId}`);
    expect(student.latest_answer_sheet?.file.uploaded_at ?? null).toBe(sentUploads.at(-1) ?? null);
  });

  it('deletes what was made by mistake, and refuses (409) what is in use', async () => {
    const created = await call('POST', '/api/congregations', { wbs_code: 'VA 22301', display_name: 'Del Ray Church of Christ' });
    const { id } = created.body as { id: string };
    const total = (await get<Listed>('/api/congregations')).total;
    expect((await call('DELETE', `/api/congregations/${id}`)).status).toBe(204);
    expect((await get<Listed>('/api/congregations')).total).toBe(total - 1);
    expect((await call('DELETE', `/api/congregations/${id}`)).status).toBe(404);
    const busy = await call('DELETE', `/api/congregations/${DEMO_CONGREGATION_ID}`);
    expect(busy).toMatchObject({ status: 409, body: { detail: { error_type: 'CONFLICT', message: expect.stringMatching(/^This congregation cannot be deleted: it has \d+ students/) } } });

    const center = mockWorld.world().serviceCenters[0]!;
    const recruiter = center.recruiters.find((row) => !mockWorld.world().files.some((file) => file.recruiterId === row.id) && !mockWorld.world().students.some((student) => student.recruiterId === row.id));
    if (recruiter) {
      expect((await call('DELETE', `/api/service-centers/${center.id}/recruiters/${recruiter.id}`)).status).toBe(204);
      expect((await get<Listed>(`/api/service-centers/${center.id}/recruiters`) as unknown as { id: string }[]).map((row) => row.id)).not.toContain(recruiter.id);
    }
    expect((await call('DELETE', `/api/service_centers/${center.id}`)).status).toBe(409);

    // A recruiting point students or files name is refused, as a recruiter is (one rule for records in use).
    const named = mockWorld.world().students.find((student) => student.recruitingPointId !== null)!;
    const owner = mockWorld.world().serviceCenters.find((row) => row.recruitingPoints.some((point) => point.id === named.recruitingPointId))!;
    const usedPoint = await call('DELETE', `/api/service_centers/${owner.id}/recruiting-points/${named.recruitingPointId}`);
    expect(usedPoint).toMatchObject({ status: 409, body: { detail: { error_type: 'CONFLICT', message: expect.stringMatching(/^This recruiting point cannot be deleted: it is named by .*students?/) } } });
    expect(owner.recruitingPoints.some((point) => point.id === named.recruitingPointId)).toBe(true);
    const added = await call('POST', `/api/service_centers/${owner.id}/recruiting-points`, { name: 'Market stall', location: 'Kumasi' });
    expect((await call('DELETE', `/api/service_centers/${owner.id}/recruiting-points/${(added.body as { id: string }).id}`)).status).toBe(204);

    const world = mockWorld.world();
    const request = world.baptismRequests.find((row) => row.status === 'pending')!;
    const requests = (await get<Listed>('/api/baptism-requests')).total;
    expect((await call('DELETE', `/api/baptism-requests/${request.id}`)).status).toBe(204);
    expect((await get<Listed>('/api/baptism-requests')).total).toBe(requests - 1);

    const upload = world.uploads.find((row) => row.process_status !== 'pending')!;
    expect((await call('DELETE', `/api/uploads/${upload.id}`)).status).toBe(204);
    expect((await call('GET', `/api/uploads/${upload.id}`)).status).toBe(404);

    signInAs('coordinator');
    expect((await call('DELETE', `/api/baptism-requests/${world.baptismRequests[0]!.id}`)).status).toBe(403);
  });

  it('takes a sent file back to the Send step until it is printed', async () => {
    const world = mockWorld.world();
    const file = world.files.find((row) => row.process_status === 'success' && row.sent_at === null)!;
    await settleReview(file.id);
    await call('PATCH', `/api/answer-sheets?file=${file.id}`, { assigned_group: DEMO_CONGREGATION_ID });
    expect((await call('POST', `/api/file/${file.id}/send`)).status).toBe(202);
    const taken = await call('DELETE', `/api/file/${file.id}/send`);
    expect(taken).toMatchObject({ status: 200, body: { id: file.id, sent_at: null } });
    expect((await get<{ step: string }>(`/api/file/${file.id}/steps`)).step).toBe('send');
    expect((await call('DELETE', `/api/file/${file.id}/send`)).status).toBe(409);
    const printed = world.files.find((row) => row.printed)!;
    expect((await call('DELETE', `/api/file/${printed.id}/send`)).status).toBe(409);
  });

  it("keeps a student's new study helper", async () => {
    const world = mockWorld.world();
    const helper = world.studyHelpers.find((row) => row.congregationId === DEMO_CONGREGATION_ID)!;
    const student = world.students.find((row) => row.congregationId === DEMO_CONGREGATION_ID && row.studyHelperId !== helper.id)!;
    expect((await call('PATCH', `/api/students/${student.id}`, { study_helper: helper.id })).status).toBe(200);
    const helped = await allPages(`/api/students?study_helper=${helper.id}`);
    expect(helped.map((row) => row.id)).toContain(student.id);
  });
});

/** Reads a progress stream as EventSource would: its content type, then each `data:` message. */
async function progress(path: string): Promise<{ status: string; completed: number; count: number }[]> {
  const response = await fetch(`${BASE}${path}`, { headers: { accept: 'text/event-stream' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const text = await response.text();
  const events = text.split('\n\n').filter((block) => block.includes('data: '));
  return events.map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { status: string; completed: number; count: number });
}

describe('progress streams', () => {
  it('streams a job as text/event-stream messages the contract allows, to its end', async () => {
    const ready = (await allPages('/api/files?file_state=ready_to_send')) as { id: string }[];
    const steps = await Promise.all(ready.map(async (file) => ({ file, step: (await get<{ step: string }>(`/api/file/${file.id}/steps`)).step })));
    const { file } = steps.find(({ step }) => step === 'send')!;
    expect((await call('POST', `/api/file/${file.id}/send`)).status).toBe(202);
    const messages = await progress(`/api/progress/send_to_study_helpers/${file.id}`);
    const stream = contract().operations.find((op) => op.operationId === 'streamJobProgress')!;
    const validate = ajv.compile(stream.responses['200']!['text/event-stream']!);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(validate(message), ajv.errorsText(validate.errors)).toBe(true);
    expect(messages.map((message) => message.completed)).toEqual([...messages.map((message) => message.completed)].sort((a, b) => a - b));
    expect(messages.at(-1)).toMatchObject({ status: 'success', completed: messages[0]!.count });
    // The run has ended: a listener arriving now gets its last state at once.
    expect(await progress(`/api/progress/send_to_study_helpers/${file.id}`)).toEqual(messages.slice(-1));
  });

  it('has no send run for a file not sent', async () => {
    const file = mockWorld.world().files.find((row) => row.sent_at === null)!;
    expect((await call('GET', `/api/progress/send_to_study_helpers/${file.id}`)).status).toBe(404);
  });

  it('refuses a run that does not exist', async () => {
    expect((await call('GET', '/api/progress/send_to_study_helpers/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('scenarios', () => {
  it('empty: no records, only reference data and the coordinator\'s congregation', async () => {
    useScenario('empty');
    for (const path of ['/api/files', '/api/students', '/api/study-helpers', '/api/service_centers', '/api/baptism-requests', '/api/uploads/']) {
      const page = await get<Listed>(path);
      expect(page, path).toMatchObject({ items: [], total: 0 });
    }
    expect((await get<Listed>('/api/congregations')).total).toBe(1);
    expect((await get<Listed>('/api/countries')).total).toBeGreaterThan(0);
    expect(await get(`/api/congregations/${DEMO_CONGREGATION_ID}/stats`)).toEqual({ all_files_count: 0, ready_to_print_count: 0 });
  });

  it('busy: hundreds of files and students, some still processing', async () => {
    useScenario('busy');
    expect((await get<Listed>('/api/files')).total).toBeGreaterThanOrEqual(200);
    expect((await get<Listed>('/api/students')).total).toBeGreaterThanOrEqual(400);
    expect((await get<Listed>('/api/files?file_state=processing')).total).toBeGreaterThan(0);
    await allPages('/api/files', 50);
  });

  it('errors: reads answer, every change is refused in the spec\'s shapes, jobs fail', async () => {
    useScenario('errors');
    expect((await get<Listed>('/api/files')).total).toBeGreaterThan(0);
    expect((await get<Listed>('/api/files?file_state=failed')).total).toBeGreaterThan(2);
    const form = new FormData();
    form.set('name', 'New scan.pdf');
    form.set('file', new Blob(['%PDF-1.4']), 'New scan.pdf');
    const upload = await fetch(`${BASE}/api/file`, { method: 'POST', body: form });
    expect(upload.status).toBe(409);
    expect(await upload.json()).toEqual({ detail: { error_type: 'DUPLICATE_FILE', message: expect.any(String) } });
    const created = await call('POST', '/api/congregations', { wbs_code: 'VA 22301', display_name: 'Del Ray' });
    expect(created).toMatchObject({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR' } } });
    const file = mockWorld.world().files.find((row) => row.sent_at !== null)!;
    expect(await call('PATCH', `/api/file/${file.id}`, { name: 'x.pdf' })).toMatchObject({ status: 500, body: { detail: { error_type: 'SERVER_ERROR' } } });
    expect((await get<Listed>('/api/congregations')).total).toBe(mockWorld.world().congregations.length);
    expect((await progress(`/api/progress/send_to_study_helpers/${file.id}`)).at(-1)).toMatchObject({ status: 'failed' });
    const pending = mockWorld.world().files.find((row) => row.process_status === 'pending')!;
    expect((await progress(`/api/progress/process_service_center_upload/${pending.id}`)).at(-1)).toMatchObject({ status: 'failed' });
    expect((await get<{ process_status: string }>(`/api/file/${pending.id}`)).process_status).toBe('failed');
    expect((await call('POST', '/api/auth/view-as', { congregation: DEMO_CONGREGATION_ID })).status).toBe(200);
  });

  it('signed out: every call but sign-in is refused with 401', async () => {
    signInAs('signed-out');
    expect((await call('GET', '/api/auth/me')).status).toBe(401);
    expect((await call('GET', '/api/files')).status).toBe(401);
  });
});
