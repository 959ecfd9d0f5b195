// The contract check any backend team can run against a live server: it calls every operation
// the caller may call, in an order that discovers real ids as it goes, and validates each
// answer's status (documented in the contract, never 5xx) and JSON body (against its schema).
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { contract, type Operation } from '../../server/contract/contract';

export interface CheckResult {
  operationId: string;
  method: string;
  url: string;
  status: number | null;
  ok: boolean;
  note: string;
}

interface Context {
  role?: string;
  is_admin?: boolean;
  congregation?: string;
  ids: Record<string, string | undefined>;
}

interface Call {
  operationId: string;
  /** Path parameters and query, from what earlier calls found; null skips the call. */
  build: (
    ctx: Context,
  ) => {
    path?: Record<string, string>;
    query?: Record<string, string>;
    body?: unknown;
    form?: FormData;
  } | null;
  /** Remember ids from a successful JSON answer. */
  learn?: (ctx: Context, body: unknown) => void;
  /** Reads only the first event of a stream. */
  stream?: boolean;
  why?: string;
}

type Json = Record<string, unknown>;
const first = (body: unknown): Json | undefined => {
  const items = Array.isArray(body)
    ? body
    : ((body as Json | undefined)?.items as unknown[] | undefined);
  return items?.[0] as Json | undefined;
};
const id = (value: unknown) => (typeof value === 'string' ? value : undefined);
const stamp = () => Date.now().toString(36).slice(-5).toUpperCase();
const unknownUuid = '00000000-0000-4000-8000-000000000000';

/** A one-page PDF made on the spot, so the upload call can be exercised anywhere. */
async function tinyPdf(): Promise<Blob> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(`contract check ${Date.now()}`, { x: 50, y: 780 });
  const bytes = await doc.save();
  return new Blob([bytes.slice().buffer as ArrayBuffer], { type: 'application/pdf' });
}

const calls: Call[] = [
  { operationId: 'getHealth', build: () => ({}) },
  {
    operationId: 'getMe',
    build: () => ({}),
    learn: (ctx, body) => {
      const me = body as Json;
      ctx.role = me.role as string;
      ctx.is_admin = me.is_admin as boolean;
      ctx.congregation = (me.congregation as string) || undefined;
    },
  },
  { operationId: 'login', build: () => ({}) },
  {
    operationId: 'authCallback',
    build: () => ({ query: { state: 'not-a-real-state' } }),
    why: 'an unknown state must be refused, not crash',
  },
  { operationId: 'listCountries', build: () => ({ query: { q: 'gh' } }) },
  { operationId: 'getCountry', build: () => ({ path: { iso_code: 'GH' } }) },
  {
    operationId: 'listCourses',
    build: () => ({ query: { limit: '50' } }),
    learn: (ctx, body) => {
      const course = first(body);
      ctx.ids.course = id(course?.id);
      ctx.ids.lesson = id((course?.lessons as Json[] | undefined)?.[0]?.id);
    },
  },
  {
    operationId: 'listCoursePages',
    build: (ctx) => (ctx.ids.course ? { path: { id: ctx.ids.course } } : null),
  },
  {
    operationId: 'printLessonMaster',
    build: (ctx) =>
      ctx.ids.course && ctx.ids.lesson
        ? { path: { id: ctx.ids.course, lesson_id: ctx.ids.lesson } }
        : null,
  },
  {
    operationId: 'listServiceCenters',
    build: () => ({}),
    learn: (ctx, body) => (ctx.ids.serviceCenter = id(first(body)?.id)),
  },
  {
    operationId: 'createServiceCenter',
    build: () => ({
      body: { name: `Contract check ${stamp()}`, country: 'GH', location: 'Accra' },
    }),
    learn: (ctx, body) => (ctx.ids.newServiceCenter = id((body as Json).id)),
  },
  {
    operationId: 'getServiceCenter',
    build: (ctx) => (ctx.ids.serviceCenter ? { path: { id: ctx.ids.serviceCenter } } : null),
  },
  {
    operationId: 'printServiceCenterCoverSheet',
    build: (ctx) => (ctx.ids.serviceCenter ? { path: { id: ctx.ids.serviceCenter } } : null),
  },
  {
    operationId: 'listRecruitingPoints',
    build: (ctx) => (ctx.ids.serviceCenter ? { path: { id: ctx.ids.serviceCenter } } : null),
  },
  {
    operationId: 'createRecruitingPoint',
    build: (ctx) =>
      ctx.ids.newServiceCenter
        ? {
            path: { id: ctx.ids.newServiceCenter },
            body: { name: 'Market stand', location: 'Market' },
          }
        : null,
    learn: (ctx, body) => (ctx.ids.recruitingPoint = id((body as Json).id)),
  },
  {
    operationId: 'updateRecruitingPoint',
    build: (ctx) =>
      ctx.ids.newServiceCenter && ctx.ids.recruitingPoint
        ? {
            path: { id: ctx.ids.newServiceCenter, recruiting_point: ctx.ids.recruitingPoint },
            body: { name: 'Market stand (east)' },
          }
        : null,
  },
  {
    operationId: 'deleteRecruitingPoint',
    build: (ctx) =>
      ctx.ids.newServiceCenter && ctx.ids.recruitingPoint
        ? { path: { id: ctx.ids.newServiceCenter, recruiting_point: ctx.ids.recruitingPoint } }
        : null,
  },
  {
    operationId: 'listRecruiters',
    build: (ctx) =>
      ctx.ids.serviceCenter ? { path: { service_center_id: ctx.ids.serviceCenter } } : null,
  },
  {
    operationId: 'createRecruiter',
    build: (ctx) =>
      ctx.ids.newServiceCenter
        ? {
            path: { service_center_id: ctx.ids.newServiceCenter },
            body: { name: 'Ama', contact_info: '+233' },
          }
        : null,
  },
  {
    operationId: 'listContactPersons',
    build: (ctx) =>
      ctx.ids.serviceCenter ? { path: { service_center_id: ctx.ids.serviceCenter } } : null,
  },
  {
    operationId: 'createContactPerson',
    build: (ctx) =>
      ctx.ids.newServiceCenter
        ? { path: { service_center_id: ctx.ids.newServiceCenter }, body: { name: 'Yaw' } }
        : null,
  },
  {
    operationId: 'listCongregations',
    build: () => ({}),
    learn: (ctx, body) => (ctx.ids.congregation = id(first(body)?.id)),
  },
  {
    operationId: 'createCongregation',
    build: () => ({ body: { wbs_code: `CC ${stamp()}`, display_name: 'Contract check' } }),
  },
  {
    operationId: 'getCongregation',
    build: (ctx) => ({ path: { id: ctx.congregation ?? ctx.ids.congregation ?? unknownUuid } }),
  },
  {
    operationId: 'getCongregationStats',
    build: (ctx) => ({ path: { id: ctx.congregation ?? ctx.ids.congregation ?? unknownUuid } }),
  },
  {
    operationId: 'listCongregationStudyHelpers',
    build: (ctx) => ({ path: { id: ctx.congregation ?? ctx.ids.congregation ?? unknownUuid } }),
  },
  {
    operationId: 'createCongregationStudyHelper',
    build: (ctx) => ({
      path: { id: ctx.congregation ?? ctx.ids.congregation ?? unknownUuid },
      body: { name: `Helper ${stamp()}`, email: 'study-helper@example.org' },
    }),
  },
  {
    operationId: 'listStudyHelpers',
    build: () => ({}),
    learn: (ctx, body) => (ctx.ids.studyHelper = id(first(body)?.id)),
  },
  {
    operationId: 'getStudyHelper',
    build: (ctx) => (ctx.ids.studyHelper ? { path: { id: ctx.ids.studyHelper } } : null),
  },
  {
    operationId: 'listStudyHelperStudents',
    build: (ctx) => (ctx.ids.studyHelper ? { path: { id: ctx.ids.studyHelper } } : null),
  },
  {
    operationId: 'listStudents',
    build: () => ({ query: { order_by: 'created_at', order_direction: 'desc' } }),
    learn: (ctx, body) => {
      const student = first(body);
      ctx.ids.student = id(student?.id);
      ctx.ids.studentAttributes = JSON.stringify(student?.attributes ?? {});
    },
  },
  { operationId: 'getStudent', build: (ctx) => ({ path: { id: ctx.ids.student ?? unknownUuid } }) },
  {
    operationId: 'updateStudent',
    build: (ctx) => {
      if (!ctx.ids.student) return null;
      const attributes = JSON.parse(ctx.ids.studentAttributes ?? '{}') as Json;
      // Sends a field back unchanged: exercises the call without changing the student.
      return {
        path: { id: ctx.ids.student },
        body: { attributes: { employment: attributes.employment ?? null } },
      };
    },
  },
  {
    operationId: 'listStudentAnswerSheets',
    build: (ctx) => (ctx.ids.student ? { path: { id: ctx.ids.student } } : null),
  },
  { operationId: 'listBaptismRequests', build: () => ({}) },
  {
    operationId: 'createBaptismRequest',
    build: () => ({ body: { student_id: 999999999 } }),
    why: 'an unknown student: 404 expected',
  },
  {
    operationId: 'listFiles',
    build: () => ({}),
    learn: (ctx, body) => (ctx.ids.file = id(first(body)?.id)),
  },
  {
    operationId: 'uploadFile',
    build: () => ({ form: new FormData() }),
    learn: (ctx, body) => (ctx.ids.uploaded = id((body as Json).id)),
  },
  {
    operationId: 'getFileSummary',
    build: (ctx) => (ctx.ids.file ? { path: { id: ctx.ids.file } } : null),
  },
  { operationId: 'getFile', build: (ctx) => ({ path: { file_id: ctx.ids.file ?? unknownUuid } }) },
  {
    operationId: 'updateFile',
    build: (ctx) =>
      ctx.ids.uploaded
        ? { path: { file_id: ctx.ids.uploaded }, body: { name: 'Contract check (renamed)' } }
        : null,
  },
  {
    operationId: 'getFileStats',
    build: (ctx) => (ctx.ids.file ? { path: { file_id: ctx.ids.file } } : null),
  },
  {
    operationId: 'getFileSteps',
    build: (ctx) => (ctx.ids.file ? { path: { file_id: ctx.ids.file } } : null),
  },
  {
    operationId: 'getFileCover',
    build: (ctx) => (ctx.ids.file ? { path: { file_id: ctx.ids.file } } : null),
  },
  {
    operationId: 'getFileQuizFeedbackAvailable',
    build: (ctx) => (ctx.ids.file ? { path: { file_id: ctx.ids.file } } : null),
  },
  {
    operationId: 'listFileCongregations',
    build: (ctx) => (ctx.ids.file ? { path: { file_id: ctx.ids.file } } : null),
    learn: (ctx, body) => (ctx.ids.distributedFile = id(first(body)?.distributed_file_id)),
  },
  {
    operationId: 'downloadFile',
    build: (ctx) => (ctx.ids.file ? { path: { file_id: ctx.ids.file } } : null),
  },
  {
    operationId: 'downloadGradedFile',
    build: (ctx) => (ctx.ids.file ? { path: { file_id: ctx.ids.file } } : null),
  },
  {
    operationId: 'sendFile',
    build: (ctx) => (ctx.ids.uploaded ? { path: { file_id: ctx.ids.uploaded } } : null),
  },
  {
    operationId: 'archiveFile',
    build: (ctx) => (ctx.ids.uploaded ? { path: { file_id: ctx.ids.uploaded } } : null),
  },
  {
    operationId: 'regenerateReturnFile',
    build: (ctx) => (ctx.ids.uploaded ? { path: { file_id: ctx.ids.uploaded } } : null),
  },
  {
    operationId: 'streamJobProgress',
    stream: true,
    build: (ctx) =>
      ctx.ids.file
        ? { path: { group_name: 'process_service_center_upload', run_id: ctx.ids.file } }
        : null,
  },
  {
    operationId: 'streamProgress',
    stream: true,
    build: (ctx) => (ctx.ids.file ? { path: { id: ctx.ids.file } } : null),
  },
  {
    operationId: 'listAnswerSheets',
    build: (ctx) => (ctx.ids.file ? { query: { file: ctx.ids.file } } : {}),
    learn: (ctx, body) => (ctx.ids.sheet = id(first(body)?.id)),
  },
  {
    operationId: 'getAnswerSheet',
    build: (ctx) => ({ path: { sheet_id: ctx.ids.sheet ?? unknownUuid } }),
  },
  {
    operationId: 'listAnswerSheetPages',
    build: (ctx) => (ctx.ids.sheet ? { path: { id: ctx.ids.sheet } } : null),
  },
  {
    operationId: 'printAnswerSheet',
    build: (ctx) => (ctx.ids.sheet ? { path: { response_id: ctx.ids.sheet } } : null),
  },
  {
    operationId: 'listPages',
    build: (ctx) => (ctx.ids.sheet ? { query: { response_id: ctx.ids.sheet } } : null),
    learn: (ctx, body) => (ctx.ids.page = id(first(body)?.id)),
  },
  {
    operationId: 'getPage',
    build: (ctx) => (ctx.ids.page ? { path: { page_id: ctx.ids.page } } : null),
  },
  {
    operationId: 'getPagePreview',
    build: (ctx) => (ctx.ids.page ? { path: { page_id: ctx.ids.page } } : null),
  },
  {
    operationId: 'getPageThumbnail',
    build: (ctx) =>
      ctx.ids.page ? { path: { page_id: ctx.ids.page }, query: { size: '500' } } : null,
  },
  {
    operationId: 'getPageGradedPreview',
    build: (ctx) => (ctx.ids.page ? { path: { page_id: ctx.ids.page } } : null),
  },
  {
    operationId: 'updatePage',
    build: (ctx) =>
      ctx.ids.page ? { path: { page_id: ctx.ids.page }, body: { ignored: false } } : null,
  },
  {
    operationId: 'updateAnswerSheet',
    build: (ctx) =>
      ctx.ids.sheet ? { path: { sheet_id: ctx.ids.sheet }, body: { lesson: null } } : null,
    why: 'on a demo sheet; sets no lesson',
  },
  {
    operationId: 'assignFileAnswerSheets',
    build: (ctx) =>
      ctx.ids.uploaded && ctx.ids.congregation
        ? { query: { file: ctx.ids.uploaded }, body: { assigned_group: ctx.ids.congregation } }
        : null,
  },
  {
    operationId: 'flagAnswerSheetBaptismRequest',
    build: () => ({ path: { response_id: unknownUuid } }),
    why: 'an unknown response: 404 expected',
  },
  {
    operationId: 'getDistributedFileExists',
    build: (ctx) => ({ path: { id: ctx.ids.distributedFile ?? unknownUuid } }),
  },
  {
    operationId: 'downloadDistributedFile',
    build: (ctx) => ({ path: { id: ctx.ids.distributedFile ?? unknownUuid } }),
  },
  {
    operationId: 'uploadStudyHelperFile',
    build: () => ({ form: new FormData() }),
  },
  {
    operationId: 'listUploads',
    build: () => ({ query: { order_by: 'name', order_direction: 'asc' } }),
    learn: (ctx, body) => (ctx.ids.upload = id(first(body)?.id)),
  },
  {
    operationId: 'getUpload',
    build: (ctx) => (ctx.ids.upload ? { path: { id: ctx.ids.upload } } : null),
  },
  {
    operationId: 'getUploadPageImage',
    build: (ctx) => (ctx.ids.upload ? { path: { id: ctx.ids.upload, page_number: '1' } } : null),
    why: 'a page may have no image (blank): 404 accepted',
  },
  {
    operationId: 'resolveQrCode',
    build: () => ({ path: { prefix: 'p', id: 'ZZZZZZZZ' } }),
    why: 'an unknown code: 404 expected',
  },
  {
    operationId: 'deleteFile',
    build: (ctx) => (ctx.ids.uploaded ? { path: { file_id: ctx.ids.uploaded } } : null),
  },
  { operationId: 'initDatabase', build: () => ({}) },
  {
    operationId: 'deleteDatabase',
    build: () => null,
    why: 'destructive: never called by the check',
  },
  { operationId: 'setViewAs', build: () => ({ body: { congregation: null } }) },
  { operationId: 'logout', build: () => null, why: 'would end the session the check runs on' },
];

function fill(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? 'missing'),
  );
}

export async function runContractCheck(options: {
  baseUrl: string;
  cookie?: string;
}): Promise<CheckResult[]> {
  const { operations } = contract();
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  const ctx: Context = { ids: {} };
  const results: CheckResult[] = [];
  const origin = new URL(options.baseUrl).origin;

  const covered = new Set(calls.map((c) => c.operationId));
  for (const op of operations) {
    if (!covered.has(op.operationId)) {
      results.push({
        operationId: op.operationId,
        method: op.method,
        url: op.path,
        status: null,
        ok: false,
        note: 'no check written for this operation',
      });
    }
  }

  for (const call of calls) {
    const op = byId.get(call.operationId) as Operation | undefined;
    if (!op) {
      results.push({
        operationId: call.operationId,
        method: '?',
        url: '?',
        status: null,
        ok: false,
        note: 'not in the contract',
      });
      continue;
    }
    const built = call.build(ctx);
    if (built === null) {
      results.push({
        operationId: op.operationId,
        method: op.method,
        url: op.path,
        status: null,
        ok: true,
        note: `skipped: ${call.why ?? 'nothing to call it on'}`,
      });
      continue;
    }
    const url = new URL(fill(op.path, built.path), options.baseUrl);
    for (const [k, v] of Object.entries(built.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json', origin };
    if (options.cookie) headers.cookie = options.cookie;
    let body: BodyInit | undefined;
    if (built.form) {
      const form = built.form;
      form.set('name', `Contract check ${stamp()}`);
      if (op.operationId === 'uploadFile') form.set('answer_sheet_page_length', '0');
      form.set('file', await tinyPdf(), 'contract-check.pdf');
      body = form;
    } else if (built.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(built.body);
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), call.stream ? 5000 : 60000);
    let status: number | null = null;
    let note = '';
    let ok = false;
    try {
      const response = await fetch(url, {
        method: op.method,
        headers,
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      status = response.status;
      const documented = op.responses[String(status)];
      if (status >= 500) note = `server error ${status}`;
      else if (!documented) note = `status ${status} is not in the contract`;
      else {
        const type = response.headers.get('content-type') ?? '';
        const schema = documented['application/json'];
        if (call.stream && type.includes('text/event-stream')) {
          const reader = response.body!.getReader();
          const { value } = await reader.read();
          await reader.cancel();
          const data = /data: (.*)/.exec(new TextDecoder().decode(value))?.[1];
          const streamSchema = documented['text/event-stream'];
          if (data && streamSchema && !ajv.validate(streamSchema, JSON.parse(data)))
            note = `event: ${ajv.errorsText()}`;
          else ok = true;
        } else if (schema && type.includes('json')) {
          const json = (await response.json()) as unknown;
          if (ajv.validate(schema, json)) {
            ok = true;
            if (status < 300) call.learn?.(ctx, json);
          } else note = `body: ${ajv.errorsText()}`;
        } else {
          await response.arrayBuffer().catch(() => undefined);
          ok = true;
        }
      }
    } catch (error) {
      note = `request failed: ${(error as Error).message}`;
    } finally {
      clearTimeout(timer);
    }
    results.push({
      operationId: op.operationId,
      method: op.method,
      url: url.pathname + url.search,
      status,
      ok,
      note: note || (call.why ?? ''),
    });
  }
  return results;
}

export function formatResults(results: CheckResult[]): string {
  const rows = results.map((r) => [
    r.ok ? 'pass' : 'FAIL',
    r.operationId,
    r.method,
    String(r.status ?? '-'),
    r.note,
  ]);
  const widths = [4, 32, 6, 6].map((w, i) => Math.max(w, ...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ');
  const passed = results.filter((r) => r.ok).length;
  return [
    line(['', 'operation', 'method', 'status', 'note']),
    ...rows.map(line),
    '',
    `${passed} passed, ${results.length - passed} failed`,
  ].join('\n');
}
