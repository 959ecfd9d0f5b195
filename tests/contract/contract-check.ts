// The contract check a backend team runs against its own server. It is the judge of another
// team's work, so it is strict and harmless:
// - every operation of the contract is called as the admin, in an order that makes what the
//   later calls need through the API (a scan printed by the server itself and uploaded, a
//   recruiting point, a congregation with a study helper, a packet sent and a graded scan of it
//   ...) and removes it again (deletes, a withdrawn upload, a send taken back); records it
//   changes are set back;
// - each answer is judged on status (documented, expected, never 5xx), content type and body
//   (against the contract's schema), a page's paging (never more rows than `limit`, `total`
//   consistent) and a filter's rows (they match it);
// - each operation's access rule (x-access) is probed anonymously and as a coordinator when
//   one is given, and each input is sent once with a wrong type (400 in the spec's shape);
// - the server's data is compared before and after (list totals and the records touched).
// The database delete is never called: its row is a skip that says so.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { operationsOf, type Operation } from '../../server/contract/operations';

export type Outcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  operationId: string;
  method: string;
  url: string;
  status: number | null;
  outcome: Outcome;
  /** What was checked, e.g. "status, type, body, paging, anonymous 401, coordinator 403, bad input 400". */
  checks: string[];
  problems: string[];
  note: string;
}

export interface CheckOptions {
  /** The bundled contract (generated/openapi.json). */
  document: Record<string, unknown>;
  baseUrl: string;
  /** Cookie header of a scanning admin's session. */
  admin: string;
  /** Cookie header of a study-helper coordinator's session (access rules are then probed for it too). */
  coordinator?: string;
  /**
   * The server itself when baseUrl is a proxy (a validation proxy): the deliberately wrong
   * requests (anonymous, bad input), the check's own lookups and uploads (a proxy may not pass
   * binary bodies through unchanged) go there. Default baseUrl.
   */
  directUrl?: string;
  /** The Origin mutating calls carry (the server's own); default the origin of baseUrl. */
  origin?: string;
  /** The check signed in itself: logout may end the admin session as its last call. */
  ownSessions?: boolean;
  /** How long an upload may take to be read (ms). */
  processingTimeoutMs?: number;
}

export interface CheckReport {
  results: CheckResult[];
}

type Json = Record<string, unknown>;

interface Req {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  form?: Record<string, string | Blob>;
  /** Bytes sent as they are (the Content-Type goes in `headers`). */
  raw?: Uint8Array;
  /** Headers on top of the check's own (which set Origin to the server's). */
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  /** The media type, lower case, without parameters ('' when none). */
  type: string;
  json?: unknown;
  bytes?: Uint8Array;
  location?: string | null;
  error?: string;
}

interface Step {
  req: Req;
  expect: number[];
  /** Extra judgement of a successful answer (filters, values): problems found. */
  verify?: (answer: Answer) => string[] | Promise<string[]>;
  /** The request of the access probes when the main one must not be repeated. */
  probe?: Req;
  /** The success path was not called: the row is a skip with this reason. */
  skip?: string;
  /** The row is a skip with this reason when the answer is not a success (the data does not allow one). */
  skipUnlessSuccess?: string;
  note?: string;
  stream?: boolean;
  /** Skip the coordinator probe (it would end or change that session). */
  noCoordinatorProbe?: string;
  /** Make the main call without the admin session. */
  anonymous?: boolean;
  /** The main request is deliberately invalid (a refusal the check wants): sent to the server itself. */
  invalid?: boolean;
  /** Sent to the server itself, never through a proxy (a protocol a proxy may not pass whole): why. */
  direct?: string;
}

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const stamp = () => Date.now().toString(36).slice(-6).toUpperCase();
const items = (answer: Answer | undefined): Json[] =>
  ((answer?.json as Json | undefined)?.items as Json[] | undefined) ??
  (Array.isArray(answer?.json) ? (answer.json as Json[]) : []);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

function fill(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? 'missing'),
  );
}

export async function runContractCheck(options: CheckOptions): Promise<CheckReport> {
  const operations = operationsOf(options.document);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  const directUrl = options.directUrl ?? options.baseUrl;
  const origin = options.origin ?? new URL(options.baseUrl).origin;
  const results: CheckResult[] = [];

  async function send(
    op: Operation,
    req: Req,
    cookie: string | undefined,
    base = options.baseUrl,
    stream = false,
  ): Promise<Answer> {
    const url = new URL(fill(op.path, req.path), base);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json, */*', origin };
    Object.assign(headers, req.headers);
    if (cookie) headers.cookie = cookie;
    let body: BodyInit | undefined;
    if (req.form) {
      const form = new FormData();
      for (const [k, v] of Object.entries(req.form)) {
        if (typeof v === 'string') form.set(k, v);
        else form.set(k, v, 'contract-check.pdf');
      }
      body = form;
    } else if (req.raw !== undefined) {
      body = new Blob([req.raw.slice()]);
    } else if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    try {
      const response = await fetch(url, {
        method: op.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(stream ? 10_000 : 120_000),
      });
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const answer: Answer = { status: response.status, type, location: response.headers.get('location') };
      if (stream && type === 'text/event-stream') {
        const reader = response.body!.getReader();
        let text = '';
        while (!/\n\n/.test(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
        await reader.cancel();
        const data = /^data: ?(.*)$/m.exec(text)?.[1];
        answer.json = data === undefined ? undefined : safeParse(data);
        return answer;
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      answer.bytes = bytes;
      if (bytes.length > 0 && type.endsWith('json')) answer.json = safeParse(new TextDecoder().decode(bytes));
      return answer;
    } catch (error) {
      return { status: 0, type: '', error: (error as Error).message };
    }
  }

  /** Status, content type and body of one answer against the contract. */
  function judge(op: Operation, answer: Answer, expect: number[]): string[] {
    if (answer.error) return [`request failed: ${answer.error}`];
    const { status } = answer;
    if (status >= 500) return [`server error ${status}`];
    const documented = op.responses[String(status)];
    if (!documented) return [`status ${status} is not in the contract`];
    const problems: string[] = [];
    if (!expect.includes(status)) problems.push(`status ${status}, expected ${expect.join(' or ')}`);
    // A HEAD answer carries GET's headers and no body.
    if (op.method.toLowerCase() === 'head') return problems;
    const types = Object.keys(documented);
    const hasBody = answer.json !== undefined || (answer.bytes?.length ?? 0) > 0;
    if (types.length > 0 && hasBody && !types.includes(answer.type)) {
      problems.push(`content type ${answer.type || '(none)'}, the contract says ${types.join(' or ')}`);
      return problems;
    }
    const schema = documented[answer.type];
    if (answer.type.endsWith('json') || answer.type === 'text/event-stream') {
      if (answer.json === undefined) problems.push('body is not JSON');
      else if (schema && !ajv.validate(schema, answer.json)) problems.push(`body: ${ajv.errorsText()}`);
    } else if (answer.type === 'application/pdf') {
      if (new TextDecoder().decode(answer.bytes?.slice(0, 5)) !== '%PDF-') problems.push('body is not a PDF');
    }
    return problems;
  }

  /** A page never holds more than `limit` rows; skip and limit echo the request; total fits. */
  function paging(answer: Answer, req: Req): string[] {
    const body = answer.json as Json | undefined;
    if (!body || !Array.isArray(body.items) || typeof body.total !== 'number') return [];
    const rows = body.items.length;
    const { total, skip, limit } = body as { total: number; skip: number; limit: number };
    const problems: string[] = [];
    if (rows > limit) problems.push(`page holds ${rows} rows, more than limit ${limit}`);
    if (req.query?.limit !== undefined && limit !== Number(req.query.limit))
      problems.push(`limit ${limit} answered for ${req.query.limit} asked`);
    const askedSkip = Number(req.query?.skip ?? 0);
    if (skip !== askedSkip) problems.push(`skip ${skip} answered for ${askedSkip} asked`);
    if (total < skip + rows) problems.push(`total ${total} is less than the ${skip + rows} rows up to this page`);
    if (rows < limit && total > skip + rows) problems.push(`a short page (${rows} of ${limit}) but total ${total} says more follow`);
    return problems;
  }

  /** The same request with one input of the wrong type, or null when it has none to get wrong. */
  function wrongInput(op: Operation, req: Req): { req: Req; what: string } | null {
    const bad = (schema: Json): string | null => {
      if (schema.format === 'uuid') return 'not-a-uuid';
      if (schema.type === 'integer' || schema.type === 'number') return 'not-a-number';
      if (Array.isArray(schema.enum)) return 'not-listed';
      if (typeof schema.pattern === 'string') return '!!';
      if (schema.type === 'boolean') return 'maybe';
      return null;
    };
    for (const where of ['path', 'query'] as const) {
      for (const param of op.parameters.filter((p) => p.in === where)) {
        const value = bad(param.schema);
        if (value === null) continue;
        const next: Req = { ...req, [where]: { ...(req[where] ?? {}), [param.name]: value } };
        return { req: next, what: `${where} ${param.name}=${value}` };
      }
    }
    if (op.jsonBody) {
      const properties = (op.jsonBody.properties ?? {}) as Record<string, Json>;
      const base = (req.body && typeof req.body === 'object' ? req.body : {}) as Json;
      const name = Object.keys(base)[0] ?? Object.keys(properties)[0];
      if (name === undefined) return { req: { ...req, body: 'not an object' }, what: 'body "not an object"' };
      // A value no coercion turns into the declared type (a number would pass as a string).
      const wrong = properties[name]?.type === 'object' ? 'not an object' : { not: 'this type' };
      return { req: { ...req, body: { ...base, [name]: wrong } }, what: `body ${name}=${JSON.stringify(wrong)}` };
    }
    if (op.multipart) {
      return { req: { ...req, form: { name: '', answer_sheet_page_length: 'seven' } }, what: 'multipart without a file' };
    }
    return null;
  }

  async function check(operationId: string, step: Step): Promise<Answer | undefined> {
    const op = byId.get(operationId);
    if (!op) {
      results.push({ operationId, method: '?', url: '?', status: null, outcome: 'fail', checks: [], problems: ['not in the contract'], note: '' });
      return undefined;
    }
    const problems: string[] = [];
    const checks: string[] = [];
    const probe = step.probe ?? step.req;
    // A request naming a record may be refused to a coordinator outside its congregation.
    const namesRecord =
      Object.keys(probe.path ?? {}).length > 0 || probe.body !== undefined || /[0-9a-f]{8}-[0-9a-f]{4}-/.test(JSON.stringify(probe.query ?? {}));

    // Access rule first: a server that wrongly lets a probe through changes only what the check made.
    const anonymous = await send(op, probe, undefined, directUrl, step.stream);
    if (op.access === 'public') {
      if (anonymous.status === 401 || anonymous.status === 403) problems.push(`anonymous: ${anonymous.status} on a public operation`);
      else if (anonymous.status >= 500 || anonymous.status === 0) problems.push(`anonymous: ${anonymous.error ?? `server error ${anonymous.status}`}`);
      checks.push('anonymous allowed');
    } else {
      if (anonymous.status !== 401) problems.push(`anonymous: status ${anonymous.status || anonymous.error}, expected 401`);
      else problems.push(...judge(op, anonymous, [401]).map((p) => `anonymous: ${p}`));
      checks.push('anonymous 401');
    }
    if (options.coordinator && !step.noCoordinatorProbe && op.access !== 'public') {
      const answer = await send(op, probe, options.coordinator, op.multipart || step.invalid || step.direct ? directUrl : options.baseUrl, step.stream);
      if (op.access === 'admin') {
        if (answer.status !== 403) problems.push(`coordinator: status ${answer.status || answer.error}, expected 403 (x-access admin)`);
        else problems.push(...judge(op, answer, [403]).map((p) => `coordinator: ${p}`));
        checks.push('coordinator 403');
      } else {
        // A probe of its own is a request the server refuses on its content, after access.
        const allowed = step.probe ? [...step.expect, 400, 403, 404, 409] : namesRecord ? [...step.expect, 403, 404] : step.expect;
        problems.push(...judge(op, answer, [...new Set(allowed)]).map((p) => `coordinator: ${p}`));
        checks.push(`coordinator allowed`);
      }
    }

    // A HEAD answer has no body to say what was wrong.
    const wrong = op.method.toLowerCase() === 'head' ? null : wrongInput(op, step.req);
    if (wrong) {
      const answer = await send(op, wrong.req, options.admin, directUrl);
      const found = judge(op, answer, [400]);
      const detail = (answer.json as Json | undefined)?.detail as Json | undefined;
      if (found.length === 0 && (detail?.error_type !== 'VALIDATION_ERROR' || typeof detail.message !== 'string'))
        found.push(`body is not {"detail":{"error_type":"VALIDATION_ERROR","message":...}}`);
      problems.push(...found.map((p) => `bad input (${wrong.what}): ${p}`));
      checks.push('bad input 400');
    }

    // Uploads and redirects go to the server itself: a proxy may mangle binary bodies or follow
    // the redirect (Stoplight Prism does both).
    const redirects = Object.keys(op.responses).some((s) => /^30[1278]$/.test(s));
    const target = op.multipart || redirects || step.invalid || step.direct ? directUrl : options.baseUrl;
    const answer = await send(op, step.req, step.anonymous ? undefined : options.admin, target, step.stream);
    const url = new URL(fill(op.path, step.req.path), options.baseUrl);
    for (const [k, v] of Object.entries(step.req.query ?? {})) url.searchParams.set(k, v);
    const judged = judge(op, answer, step.expect);
    problems.unshift(...judged);
    checks.unshift('status, type, body');
    if (judged.length === 0) {
      const pages = paging(answer, step.req);
      if ((answer.json as Json | undefined)?.items !== undefined) checks.splice(1, 0, 'paging');
      problems.push(...pages);
      if (step.verify) {
        checks.splice(1, 0, 'values');
        try {
          problems.push(...(await step.verify(answer)));
        } catch (error) {
          problems.push(`could not judge the values: ${(error as Error).message}`);
        }
      }
    }
    const skip = step.skip ?? (step.skipUnlessSuccess && !(answer.status >= 200 && answer.status < 300) ? step.skipUnlessSuccess : undefined);
    results.push({
      operationId,
      method: op.method,
      url: url.pathname + url.search,
      status: answer.status || null,
      outcome: problems.length > 0 ? 'fail' : skip ? 'skip' : 'pass',
      checks,
      problems,
      note: skip ? `skipped: ${skip}` : (step.note ?? ''),
    });
    return judged.length === 0 ? answer : undefined;
  }

  /** A call the check needs that is not itself a row (a lookup, a restore). */
  async function quiet(operationId: string, req: Req): Promise<Answer> {
    return send(byId.get(operationId)!, req, options.admin, directUrl);
  }

  function skipped(operationId: string, reason: string) {
    const op = byId.get(operationId)!;
    results.push({ operationId, method: op.method, url: op.path, status: null, outcome: 'skip', checks: [], problems: [], note: `skipped: ${reason}` });
  }

  // What "the data as before" means: every list's total, the people of the service center
  // used, and the records the check touches.
  async function snapshot(ids: { serviceCenter?: string; student?: string }): Promise<Record<string, unknown>> {
    const shot: Record<string, unknown> = {};
    for (const id of ['listFiles', 'listServiceCenters', 'listCongregations', 'listStudyHelpers', 'listStudents', 'listBaptismRequests', 'listUploads', 'listAnswerSheets', 'listCourses']) {
      shot[id] = (await quiet(id, { query: { limit: '1' } })).json;
    }
    if (ids.serviceCenter) {
      for (const id of ['listRecruitingPoints', 'listRecruiters', 'listContactPersons']) {
        const path: Record<string, string> = id === 'listRecruitingPoints' ? { id: ids.serviceCenter } : { service_center_id: ids.serviceCenter };
        shot[id] = (await quiet(id, { path })).json;
      }
    }
    if (ids.student) shot.student = (await quiet('getStudent', { path: { id: ids.student } })).json;
    shot.me = (await quiet('getMe', {})).json;
    return shot;
  }

  /** A check that the record is gone: its read answers 404. */
  const gone = (what: string, operationId: string, req: Req) => async () =>
    (await quiet(operationId, req)).status === 404 ? [] : [`the ${what} is still there`];
  /** A check that a list no longer holds the record. */
  const unlisted = (what: string, operationId: string, req: Req, id: string | undefined) => async () =>
    items(await quiet(operationId, req)).some((row) => row.id === id) ? [`the ${what} is still listed`] : [];

  // ---- Reference data, service centers, congregations, helpers, students ------------------
  await check('getHealth', { req: {}, expect: [200] });
  const me = (await check('getMe', { req: {}, expect: [200] }))?.json as Json | undefined;
  if (me && me.role !== 'scanning_admin') {
    results.push({ operationId: '(sign-in)', method: '-', url: '-', status: null, outcome: 'fail', checks: [], problems: [`the admin session is a ${String(me.role)}`], note: '' });
  }
  await check('login', { req: {}, expect: [302], verify: (a) => (a.location ? [] : ['no Location to the provider']) });
  await check('authCallback', { req: { query: { code: 'x', state: 'not-a-real-state' } }, expect: [302, 400], note: 'an unknown state is refused' });
  // The GET only shows a button: the admin session must still be there afterwards (getMe later).
  await check('showLogoutPage', { req: {}, expect: [200], verify: (a) => (a.type === 'text/html' ? [] : [`content type ${a.type}, expected text/html`]) });
  await check('listCountries', {
    req: { query: { q: 'gh', limit: '5' } },
    expect: [200],
    verify: (a) =>
      items(a)
        .filter((c) => !`${String(c.iso_code)} ${String(c.display_name)}`.toLowerCase().includes('gh'))
        .map((c) => `filter q=gh: ${String(c.display_name)} does not match`),
  });
  await check('getCountry', { req: { path: { iso_code: 'GH' } }, expect: [200], verify: (a) => ((a.json as Json).iso_code === 'GH' ? [] : ['another country answered']) });

  const courses = await check('listCourses', { req: { query: { limit: '2' } }, expect: [200] });
  const course = items(courses)[0];
  const courseId = str(course?.id);
  const lessonId = str((course?.lessons as Json[] | undefined)?.[0]?.id);
  await check('listCoursePages', { req: { path: { id: courseId ?? UNKNOWN_UUID } }, expect: courseId ? [200] : [404] });
  const master = await check('printLessonMaster', {
    req: { path: { id: courseId ?? UNKNOWN_UUID, lesson_id: lessonId ?? UNKNOWN_UUID } },
    expect: courseId && lessonId ? [200] : [404],
  });

  const centers = await check('listServiceCenters', { req: { query: { limit: '3' } }, expect: [200] });
  const serviceCenter = str(items(centers)[0]?.id);
  const before = await snapshot({ serviceCenter });
  await check('getServiceCenter', {
    req: { path: { id: serviceCenter ?? UNKNOWN_UUID } },
    expect: serviceCenter ? [200] : [404],
    verify: (a) => ((a.json as Json).id === serviceCenter ? [] : ['another service center answered']),
  });
  const cover = await check('printServiceCenterCoverSheet', { req: { path: { id: serviceCenter ?? UNKNOWN_UUID } }, expect: serviceCenter ? [200] : [404] });
  await check('listRecruitingPoints', { req: { path: { id: serviceCenter ?? UNKNOWN_UUID } }, expect: serviceCenter ? [200] : [404] });
  const point = await check('createRecruitingPoint', {
    req: { path: { id: serviceCenter ?? UNKNOWN_UUID }, body: { name: `Contract check ${stamp()}`, location: 'Contract check' } },
    expect: serviceCenter ? [201] : [404],
    note: 'removed again below',
  });
  const pointId = str((point?.json as Json | undefined)?.id);
  const pointPath = { id: serviceCenter ?? UNKNOWN_UUID, recruiting_point: pointId ?? UNKNOWN_UUID };
  await check('updateRecruitingPoint', {
    req: { path: pointPath, body: { name: 'Contract check (renamed)' } },
    expect: pointId ? [200] : [404],
    verify: (a) => ((a.json as Json).name === 'Contract check (renamed)' ? [] : ['the new name is not in the answer']),
  });
  await check('deleteRecruitingPoint', { req: { path: pointPath }, expect: pointId ? [204] : [404] });
  await check('listRecruiters', { req: { path: { service_center_id: serviceCenter ?? UNKNOWN_UUID } }, expect: serviceCenter ? [200] : [404] });
  const recruiters = { service_center_id: serviceCenter ?? UNKNOWN_UUID };
  const recruiter = await check('createRecruiter', {
    req: { path: recruiters, body: { name: `Contract check ${stamp()}`, contact_info: '-' } },
    expect: serviceCenter ? [201] : [404],
    note: 'deleted again below',
  });
  const recruiterId = str((recruiter?.json as Json | undefined)?.id);
  await check('deleteRecruiter', {
    req: { path: { ...recruiters, recruiter_id: recruiterId ?? UNKNOWN_UUID } },
    expect: recruiterId ? [204] : [404],
    verify: unlisted('recruiter', 'listRecruiters', { path: recruiters }, recruiterId),
  });
  await check('listContactPersons', { req: { path: recruiters }, expect: serviceCenter ? [200] : [404] });
  const contact = await check('createContactPerson', {
    req: { path: recruiters, body: { name: `Contract check ${stamp()}` } },
    expect: serviceCenter ? [201] : [404],
    note: 'deleted again below',
  });
  const contactId = str((contact?.json as Json | undefined)?.id);
  await check('deleteContactPerson', {
    req: { path: { ...recruiters, contact_person_id: contactId ?? UNKNOWN_UUID } },
    expect: contactId ? [204] : [404],
    verify: unlisted('contact person', 'listContactPersons', { path: recruiters }, contactId),
  });
  const newCenter = await check('createServiceCenter', {
    req: { body: { name: `Contract check ${stamp()}`, country: 'GH', location: 'Accra' } },
    expect: [201],
    note: 'deleted again below',
  });
  const newCenterId = str((newCenter?.json as Json | undefined)?.id);
  await check('deleteServiceCenter', {
    req: { path: { id: newCenterId ?? UNKNOWN_UUID } },
    expect: newCenterId ? [204] : [404],
    verify: gone('service center', 'getServiceCenter', { path: { id: newCenterId ?? UNKNOWN_UUID } }),
  });

  const congregations = await check('listCongregations', {
    req: { query: { limit: '3' } },
    expect: [200],
    verify: async (a) => {
      const code = str(items(a)[0]?.wbs_code);
      if (!code) return [];
      const part = code.slice(0, 4).toLowerCase();
      const filtered = await quiet('listCongregations', { query: { wbs_code: part, limit: '50' } });
      return items(filtered)
        .filter((c) => !String(c.wbs_code).toLowerCase().includes(part))
        .map((c) => `filter wbs_code=${part}: ${String(c.wbs_code)} does not match`)
        .concat(items(filtered).some((c) => c.wbs_code === code) ? [] : [`filter wbs_code=${part} lost ${code}`]);
    },
  });
  const congregation = items(congregations)[0];
  const congregationId = str(congregation?.id);
  // A congregation of the check's own, with a study helper: both deleted again below.
  const createdCongregation = await check('createCongregation', {
    req: { body: { wbs_code: `CC ${stamp()}`, display_name: 'Contract check' } },
    expect: [201],
    note: 'deleted again below',
  });
  const newCongregationId = str((createdCongregation?.json as Json | undefined)?.id);
  const congregationPath = { id: congregationId ?? UNKNOWN_UUID };
  await check('getCongregation', {
    req: { path: congregationPath },
    expect: congregationId ? [200] : [404],
    verify: (a) => ((a.json as Json).id === congregationId ? [] : ['another congregation answered']),
  });
  await check('getCongregationStats', { req: { path: congregationPath }, expect: congregationId ? [200] : [404] });
  await check('listCongregationStudyHelpers', { req: { path: congregationPath, query: { limit: '3' } }, expect: congregationId ? [200] : [404] });
  const helper = await check('createCongregationStudyHelper', {
    req: { path: { id: newCongregationId ?? UNKNOWN_UUID }, body: { name: `Contract check ${stamp()}`, email: 'contract-check@example.org' } },
    probe: { path: { id: UNKNOWN_UUID }, body: { name: 'Contract check', email: 'contract-check@example.org' } },
    expect: newCongregationId ? [201] : [404],
    note: 'in the congregation made above; deleted again below',
  });
  const newHelperId = str((helper?.json as Json | undefined)?.id);
  const helpers = await check('listStudyHelpers', { req: { query: { limit: '3' } }, expect: [200] });
  const helperId = str(items(helpers)[0]?.id);
  await check('getStudyHelper', { req: { path: { id: helperId ?? UNKNOWN_UUID } }, expect: helperId ? [200] : [404] });
  await check('listStudyHelperStudents', { req: { path: { id: helperId ?? UNKNOWN_UUID }, query: { limit: '3' } }, expect: helperId ? [200] : [404] });
  await check('deleteStudyHelper', {
    req: { path: { id: newHelperId ?? UNKNOWN_UUID } },
    expect: newHelperId ? [204] : [404],
    verify: gone('study helper', 'getStudyHelper', { path: { id: newHelperId ?? UNKNOWN_UUID } }),
  });
  // An e-mail address of the check's own congregation: listed, then deleted again.
  const emailsPath = { id: newCongregationId ?? UNKNOWN_UUID };
  const email = await check('createCongregationEmail', {
    req: { path: emailsPath, body: { email: `contract-check-${stamp()}@example.org`.toLowerCase() } },
    probe: { path: { id: UNKNOWN_UUID }, body: { email: 'contract-check@example.org' } },
    expect: newCongregationId ? [201] : [404],
    note: 'in the congregation made above; deleted again below',
  });
  const newEmailId = str((email?.json as Json | undefined)?.id);
  await check('listCongregationEmails', {
    req: { path: emailsPath },
    expect: newCongregationId ? [200] : [404],
    verify: (a) => (Array.isArray(a.json) && (a.json as Json[]).some((row) => row.id === newEmailId) ? [] : ['the address added is not listed']),
  });
  await check('deleteCongregationEmail', {
    req: { path: { ...emailsPath, email_id: newEmailId ?? UNKNOWN_UUID } },
    expect: newEmailId ? [204] : [404],
    verify: async () =>
      ((await quiet('listCongregationEmails', { path: emailsPath })).json as Json[] | undefined)?.some((row) => row.id === newEmailId)
        ? ['the address is still listed']
        : [],
  });
  await check('deleteCongregation', {
    req: { path: { id: newCongregationId ?? UNKNOWN_UUID } },
    expect: newCongregationId ? [204] : [404],
    verify: gone('congregation', 'getCongregation', { path: { id: newCongregationId ?? UNKNOWN_UUID } }),
  });

  const students = await check('listStudents', {
    req: { query: { limit: '3', order_by: 'human_id', order_direction: 'asc' } },
    expect: [200],
    verify: async (a) => {
      const problems: string[] = [];
      const ids = items(a).map((s) => Number(s.human_id));
      if (ids.some((id, i) => i > 0 && id < ids[i - 1]!)) problems.push('order_by=human_id asc: rows out of order');
      if (!congregationId) return problems;
      const filtered = await quiet('listStudents', { query: { congregation: congregationId, limit: '50' } });
      return problems.concat(
        items(filtered)
          .filter((s) => s.congregation_id !== congregationId)
          .map((s) => `filter congregation: student ${String(s.human_id)} is of another congregation`),
      );
    },
  });
  const student = items(students)[0];
  const studentId = str(student?.id);
  const touched = await snapshot({ student: studentId });
  await check('getStudent', {
    req: { path: { id: studentId ?? UNKNOWN_UUID } },
    expect: studentId ? [200] : [404],
    verify: (a) => ((a.json as Json).id === studentId ? [] : ['another student answered']),
  });
  const employment = ((student?.attributes as Json | undefined)?.employment ?? null) as unknown;
  await check('updateStudent', {
    req: { path: { id: studentId ?? UNKNOWN_UUID }, body: { attributes: { employment } } },
    expect: studentId ? [200] : [404],
    note: 'sends a field back unchanged',
  });
  await check('listStudentAnswerSheets', { req: { path: { id: studentId ?? UNKNOWN_UUID } }, expect: studentId ? [200] : [404] });
  await check('listBaptismRequests', { req: { query: { limit: '3' } }, expect: [200] });
  // A student with an answer sheet and no baptism request: a request is made for it (by id, then
  // by flagging its response) and deleted again each time.
  const candidate = await studentForBaptism();
  const noCandidate = candidate ? undefined : 'no student here has an answer sheet and no baptism request: only refusals were checked';
  const madeRequest = await check('createBaptismRequest', {
    req: { body: { student_id: candidate?.humanId ?? 999_999_999 } },
    probe: { body: { student_id: 999_999_999 } },
    expect: candidate ? [201] : [404],
    skip: noCandidate,
    note: 'deleted again below',
  });
  const requestId = str((madeRequest?.json as Json | undefined)?.id);
  await check('deleteBaptismRequest', {
    req: { path: { id: requestId ?? UNKNOWN_UUID } },
    expect: requestId ? [204] : [404],
    verify: unlisted('baptism request', 'listBaptismRequests', { query: { limit: '500' } }, requestId),
  });
  await check('flagAnswerSheetBaptismRequest', {
    req: { path: { response_id: candidate?.sheetId ?? UNKNOWN_UUID } },
    expect: candidate ? [200] : [404],
    skip: noCandidate,
    verify: (a) => (!candidate || (a.json as Json).is_baptism_request === true ? [] : ['the response is not flagged']),
    note: 'undone by deleting the request it made',
  });
  if (candidate) {
    const made = items(await quiet('listBaptismRequests', { query: { limit: '500' } })).find((r) => (r.student as Json | undefined)?.id === candidate.id);
    if (made) await quiet('deleteBaptismRequest', { path: { id: String(made.id) } });
  }

  // ---- A scan made of the server's own print-outs, uploaded and read ----------------------
  let fileId: string | undefined;
  const fileName = `Contract check ${stamp()}`;
  // The print-outs as the server made them (read again from it directly behind a proxy).
  const printed = async (answer: Answer | undefined, operationId: string, req: Req) =>
    answer?.bytes && directUrl !== options.baseUrl ? (await quiet(operationId, req)).bytes : answer?.bytes;
  const masterBytes = await printed(master, 'printLessonMaster', { path: { id: courseId ?? UNKNOWN_UUID, lesson_id: lessonId ?? UNKNOWN_UUID } });
  const coverBytes = await printed(cover, 'printServiceCenterCoverSheet', { path: { id: serviceCenter ?? UNKNOWN_UUID } });
  if (masterBytes && coverBytes) {
    const scan = await joinPdfs([coverBytes, masterBytes]);
    const uploaded = await check('uploadFile', {
      req: { form: { name: fileName, answer_sheet_page_length: '0', file: scan } },
      probe: { form: { name: fileName, answer_sheet_page_length: '0' } },
      expect: [201],
      note: 'a cover sheet and a lesson master printed by the server; deleted below',
    });
    fileId = str((uploaded?.json as Json | undefined)?.id);
  } else {
    await check('uploadFile', { req: { form: { name: fileName, answer_sheet_page_length: '0' } }, expect: [400], note: 'no print-outs to make a scan of' });
  }
  const filePath = { file_id: fileId ?? UNKNOWN_UUID };
  await check('streamProgress', { req: { path: { id: fileId ?? UNKNOWN_UUID } }, expect: fileId ? [200] : [404], stream: true });
  await check('streamJobProgress', {
    req: { path: { group_name: 'process_service_center_upload', run_id: fileId ?? UNKNOWN_UUID } },
    expect: fileId ? [200] : [404],
    stream: true,
  });
  let file: Json | undefined;
  if (fileId) {
    const deadline = Date.now() + (options.processingTimeoutMs ?? 180_000);
    while (Date.now() < deadline) {
      file = (await quiet('getFile', { path: filePath })).json as Json | undefined;
      if (file?.process_status !== 'pending' && file?.process_status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const hasFile = fileId ? [200] : [404];
  await check('listFiles', {
    req: { query: { limit: '3', query_name: fileName } },
    expect: [200],
    verify: (a) =>
      items(a)
        .filter((f) => !String(f.name).toLowerCase().includes(fileName.toLowerCase()))
        .map((f) => `filter query_name: ${String(f.name)} does not match`)
        .concat(fileId && !items(a).some((f) => f.id === fileId) ? ['filter query_name lost the uploaded file'] : []),
  });
  await check('getFileSummary', { req: { path: { id: fileId ?? UNKNOWN_UUID } }, expect: hasFile });
  await check('getFile', {
    req: { path: filePath },
    expect: hasFile,
    verify: (a) => ((a.json as Json).process_status === 'success' ? [] : [`the scan was not read: ${String((a.json as Json).process_status)} ${String((a.json as Json).failure_reason ?? '')}`]),
  });
  await check('updateFile', {
    req: { path: filePath, body: { name: `${fileName} (renamed)` } },
    expect: hasFile,
    verify: (a) => ((a.json as Json).name === `${fileName} (renamed)` ? [] : ['the new name is not in the answer']),
  });
  await check('getFileStats', { req: { path: filePath }, expect: hasFile });
  await check('getFileSteps', { req: { path: filePath }, expect: hasFile });
  await check('getFileCover', { req: { path: filePath }, expect: fileId ? [200] : [404] });
  await check('getFileQuizFeedbackAvailable', { req: { path: filePath }, expect: hasFile });
  await check('downloadFile', { req: { path: filePath }, expect: hasFile });
  await check('downloadGradedFile', { req: { path: filePath }, expect: fileId ? [409] : [404], note: 'nothing graded yet: 409' });

  const sheets = await check('listAnswerSheets', {
    req: { query: { file: fileId ?? UNKNOWN_UUID, limit: '5' } },
    expect: fileId ? [200] : [404, 200],
    verify: (a) =>
      items(a)
        .filter((s) => s.file_id !== fileId)
        .map((s) => `filter file: sheet ${String(s.id)} is of another file`)
        .concat(fileId && items(a).length === 0 ? ['no answer sheet read from the lesson master'] : []),
  });
  const sheet = items(sheets)[0];
  const sheetId = str(sheet?.id);
  const sheetPath = { sheet_id: sheetId ?? UNKNOWN_UUID };
  const hasSheet = sheetId ? [200] : [404];
  await check('getAnswerSheet', { req: { path: sheetPath }, expect: hasSheet });
  await check('listAnswerSheetPages', { req: { path: { id: sheetId ?? UNKNOWN_UUID } }, expect: hasSheet });
  await check('printAnswerSheet', { req: { path: { response_id: sheetId ?? UNKNOWN_UUID } }, expect: hasSheet });
  const pages = await check('listPages', {
    req: { query: { response_id: sheetId ?? UNKNOWN_UUID } },
    expect: hasSheet,
    verify: (a) =>
      items(a)
        .filter((p) => (p.answer_sheet as Json | null)?.id !== sheetId)
        .map((p) => `filter response_id: page ${String(p.id)} is of another sheet`),
  });
  const page = items(pages)[0];
  const pageId = str(page?.id);
  const pagePath = { page_id: pageId ?? UNKNOWN_UUID };
  const hasPage = pageId ? [200] : [404];
  await check('getPage', { req: { path: pagePath }, expect: hasPage });
  await check('getPagePreview', { req: { path: pagePath }, expect: hasPage });
  await check('getPageThumbnail', { req: { path: pagePath, query: { size: '500' } }, expect: hasPage });
  await check('getPageGradedPreview', { req: { path: pagePath }, expect: [404], note: 'no graded scan yet: 404' });
  await check('getPagePhoto', {
    req: { path: pagePath },
    expect: page?.has_photo === true ? [200] : [404],
    note: page?.has_photo === true ? 'a photographed page' : 'a scanned page has no photo: 404',
  });
  const ignored = Boolean(page?.ignored);
  await check('updatePage', {
    req: { path: pagePath, body: { ignored: !ignored } },
    expect: hasPage,
    verify: (a) => ((a.json as Json).ignored === !ignored ? [] : ['the change is not in the answer']),
    note: 'set back after',
  });
  if (pageId) await quiet('updatePage', { path: pagePath, body: { ignored } });
  const lesson = ((sheet?.lesson as Json | null | undefined)?.id ?? null) as string | null;
  await check('updateAnswerSheet', {
    req: { path: sheetPath, body: { lesson: lesson ? null : (lessonId ?? null) } },
    expect: hasSheet,
    note: 'set back after',
  });
  if (sheetId) await quiet('updateAnswerSheet', { path: sheetPath, body: { lesson } });
  await check('assignFileAnswerSheets', {
    req: { query: { file: fileId ?? UNKNOWN_UUID }, body: { assigned_group: congregationId ?? UNKNOWN_UUID } },
    expect: fileId && congregationId ? [200] : [404],
  });
  // Sent for real, then taken back (nothing printed, the graded scan withdrawn) and deleted.
  const assigned = Boolean(fileId && congregationId);
  await check('sendFile', {
    req: { path: filePath },
    expect: assigned ? [202] : fileId ? [409] : [404],
    note: 'taken back below',
  });
  let distributed: string | undefined;
  let sent = false;
  if (assigned) {
    const deadline = Date.now() + 120_000;
    while (!sent && Date.now() < deadline) {
      sent = ((await quiet('getFile', { path: filePath })).json as Json | undefined)?.sent_at != null;
      if (!sent) await new Promise((r) => setTimeout(r, 500));
    }
    distributed = str(items(await quiet('listFileCongregations', { path: filePath })).find((c) => c.packet_id)?.packet_id);
  }
  await check('listFileCongregations', { req: { path: filePath }, expect: hasFile });
  await check('archiveFile', { req: { path: filePath }, expect: fileId ? [409] : [404], note: 'no return file downloaded: 409' });
  await check('regenerateReturnFile', { req: { path: filePath }, expect: fileId ? [409] : [404], note: 'grading not complete: 409' });
  await check('getPacketExists', {
    req: { path: { id: distributed ?? UNKNOWN_UUID } },
    expect: distributed ? [200] : [404],
    verify: (a) => ((a.json as Json).exists === true ? [] : ['the sent packet does not exist']),
  });
  // Downloaded as a link from another site would: the packet is not marked printed.
  const crossSite = { 'sec-fetch-site': 'cross-site', origin: 'https://contract-check.invalid' };
  const packetReq: Req = { path: { id: distributed ?? UNKNOWN_UUID }, headers: crossSite };
  const packet = await check('downloadPacket', {
    req: packetReq,
    expect: distributed ? [200] : [404],
    note: 'as a cross-site link: not marked printed',
  });
  const packetBytes = packet?.bytes && directUrl !== options.baseUrl ? (await quiet('downloadPacket', packetReq)).bytes : packet?.bytes;
  // Graded scans come from a congregation: the admin acts as one (View As) to send them. One page
  // of the packet is graded (the file is not complete, so the upload can be withdrawn); a
  // one-page packet is not sent back, the master is (it matches nothing).
  const gradedScan = packetBytes && (await pageCount(packetBytes)) > 1 ? await firstPage(packetBytes) : masterBytes;
  if (congregationId) await quiet('setViewAs', { body: { congregation: congregationId } });
  const graded = await check('uploadStudyHelperFile', {
    req: gradedScan ? { form: { name: `Contract check ${stamp()}`, file: await joinPdfs([gradedScan]) } } : { form: { name: 'Contract check' } },
    probe: { form: { name: 'Contract check' } },
    expect: gradedScan && congregationId ? [201] : [400],
    note: 'a page of the packet, graded; withdrawn below',
  });
  if (congregationId) await quiet('setViewAs', { body: { congregation: null } });
  const gradedId = str((graded?.json as Json | undefined)?.id);
  if (gradedId) {
    const deadline = Date.now() + (options.processingTimeoutMs ?? 180_000);
    while (Date.now() < deadline) {
      const status = ((await quiet('getUpload', { path: { id: gradedId } })).json as Json | undefined)?.process_status;
      if (status !== 'pending' && status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await check('listUploads', { req: { query: { order_by: 'name', order_direction: 'asc', limit: '3' } }, expect: [200] });
  await check('getUpload', {
    req: { path: { id: gradedId ?? UNKNOWN_UUID } },
    expect: gradedId ? [200] : [404],
    verify: (a) => ((a.json as Json).process_status === 'success' ? [] : [`the graded scan was not read: ${String((a.json as Json).process_status)}`]),
  });
  await check('getUploadPageImage', {
    req: { path: { id: gradedId ?? UNKNOWN_UUID, page_number: '1' } },
    expect: gradedId ? [200] : [404],
  });
  await check('withdrawUpload', {
    req: { path: { id: gradedId ?? UNKNOWN_UUID } },
    expect: gradedId ? [204] : [404],
    verify: gone('upload', 'getUpload', { path: { id: gradedId ?? UNKNOWN_UUID } }),
  });
  await check('recallFile', {
    req: { path: filePath },
    expect: sent ? [200] : fileId ? [409] : [404],
    verify: (a) => ((a.json as Json).sent_at === null ? [] : ['the file is still sent']),
    note: 'back at the Send step',
  });
  await check('resolveQrCode', { req: { path: { prefix: 'p', id: 'ZZZZZZZZ' } }, expect: [404], note: 'an unknown code: 404' });
  await check('deleteFile', {
    req: { path: filePath },
    expect: fileId ? [204] : [404],
    verify: gone('file', 'getFile', { path: filePath }),
  });

  // ---- Resumable uploads (tus): start one, ask where it stands, send a part, read it, cancel it ----
  const tus = { 'tus-resumable': '1.0.0' };
  const metadata = Object.entries({ kind: 'service_center', name: 'Contract check resumable', filename: 'contract-check.pdf', answer_sheet_page_length: '0' })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
  const startTus: Req = { headers: { ...tus, 'upload-length': '64', 'upload-metadata': metadata } };
  const direct = 'tus headers and raw bytes';
  const started = await check('createResumableUpload', { req: startTus, probe: startTus, expect: [201], note: 'a 64-byte upload, never finished', direct });
  const tusId = started?.location?.split('/').filter(Boolean).pop() ?? '0'.repeat(32);
  const tusPath = { id: tusId };
  await check('getResumableUploadOffset', { req: { path: tusPath, headers: tus }, expect: started?.location ? [200] : [404], direct });
  await check('appendResumableUpload', {
    req: {
      path: tusPath,
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      raw: new TextEncoder().encode('%PDF-1.4 part'),
    },
    expect: started?.location ? [204] : [404],
    note: 'the first bytes only: no file is made',
    direct,
  });
  await check('getResumableUpload', { req: { path: tusPath }, expect: started?.location ? [200] : [404], direct });
  await check('cancelResumableUpload', { req: { path: tusPath, headers: tus }, expect: started?.location ? [204] : [404], note: 'its parts removed', direct });

  // ---- Database, View As, session ------------------------------------------------------
  // ---- Mail: the record (read only) and the admin's own settings, set to what they were ----
  await check('listMailMessages', { req: { query: { limit: '3' } }, expect: [200] });
  const mailSettings = (await check('getMailSettings', { req: {}, expect: [200] }))?.json as Json | undefined;
  await check('updateMailSettings', {
    req: { body: { upload_reports: mailSettings?.upload_reports !== false } },
    expect: [200],
    note: 'sets the value it had',
  });
  await check('initDatabase', { req: {}, expect: [200] });
  skipped('deleteDatabase', 'destructive: it empties the whole programme, never called by the check');
  await check('setViewAs', {
    req: { body: { congregation: congregationId ?? UNKNOWN_UUID } },
    expect: congregationId ? [200] : [404],
    verify: async () => {
      const acting = (await quiet('getMe', {})).json as Json;
      return acting.congregation === congregationId ? [] : ['getMe does not act as the congregation'];
    },
    note: 'set back after',
  });
  const viewAs = (touched.me as Json | undefined)?.congregation;
  await quiet('setViewAs', { body: { congregation: typeof viewAs === 'string' && viewAs !== '' ? viewAs : null } });

  const after = await snapshot({ serviceCenter, student: studentId });
  const changes = compare({ ...before, student: touched.student, me: touched.me }, after);
  results.push({
    operationId: '(data as before)',
    method: '-',
    url: '-',
    status: null,
    outcome: changes.length > 0 ? 'fail' : 'pass',
    checks: ['list totals', 'records touched'],
    problems: changes,
    note: '',
  });

  // Last: it ends the admin session when the check made it, else it is called anonymously.
  await check('logout', {
    req: {},
    expect: [303],
    noCoordinatorProbe: 'would end that session',
    anonymous: !options.ownSessions,
    note: options.ownSessions ? 'ends the session the check signed in with' : 'called without the given session, which is kept',
    direct: 'a proxy may not forward a body-less POST as the portal sends it',
  });

  const covered = new Set(results.map((r) => r.operationId));
  for (const op of operations) {
    if (!covered.has(op.operationId)) {
      results.push({ operationId: op.operationId, method: op.method, url: op.path, status: null, outcome: 'fail', checks: [], problems: ['no check written for this operation'], note: '' });
    }
  }
  return { results };

  /** A student with an answer sheet and no baptism request, and its newest sheet. */
  async function studentForBaptism(): Promise<{ id: string; humanId: number; sheetId: string } | undefined> {
    const requested = new Set(
      items(await quiet('listBaptismRequests', { query: { limit: '500' } })).map((r) => (r.student as Json | undefined)?.id),
    );
    const list = await quiet('listStudents', { query: { limit: '50', order_by: 'human_id', order_direction: 'asc' } });
    for (const row of items(list)) {
      if (requested.has(row.id)) continue;
      const sheets = await quiet('listStudentAnswerSheets', { path: { id: String(row.id) } });
      const sheetId = str(items(sheets)[0]?.id);
      if (sheetId && !items(sheets).some((s) => s.is_baptism_request)) return { id: String(row.id), humanId: Number(row.human_id), sheetId };
    }
    return undefined;
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Differences of totals and touched records. */
function compare(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, was] of Object.entries(before)) {
    const now = after[key];
    const total = (v: unknown) => (v as Json | undefined)?.total;
    if (total(was) !== undefined) {
      if (total(was) !== total(now))
        problems.push(`${key}: total ${String(total(was))} before, ${String(total(now))} after`);
    } else if (JSON.stringify(was) !== JSON.stringify(now)) {
      problems.push(`${key}: changed (${JSON.stringify(was)?.slice(0, 120)} -> ${JSON.stringify(now)?.slice(0, 120)})`);
    }
  }
  return problems;
}

async function pageCount(pdf: Uint8Array): Promise<number> {
  const { PDFDocument } = await import('pdf-lib');
  return (await PDFDocument.load(pdf)).getPageCount();
}

/** The first page of a PDF, as a PDF. */
async function firstPage(pdf: Uint8Array): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const out = await PDFDocument.create();
  const [page] = await out.copyPages(await PDFDocument.load(pdf), [0]);
  out.addPage(page!);
  return out.save();
}

/** One PDF of the given ones' pages, as a scanner would send a batch. */
async function joinPdfs(parts: Uint8Array[]): Promise<Blob> {
  const { PDFDocument } = await import('pdf-lib');
  const out = await PDFDocument.create();
  // Never the bytes of an earlier run: the server refuses a file it has seen (409 DUPLICATE_FILE).
  out.setTitle(`Contract check ${new Date().toISOString()} ${Math.random().toString(36).slice(2)}`);
  for (const part of parts) {
    const doc = await PDFDocument.load(part);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  const bytes = await out.save();
  return new Blob([bytes.slice().buffer as ArrayBuffer], { type: 'application/pdf' });
}

export function summary(results: CheckResult[]): string {
  const count = (outcome: Outcome) => results.filter((r) => r.outcome === outcome).length;
  return `${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`;
}

export function formatResults(results: CheckResult[]): string {
  const rows = results.map((r) => [
    r.outcome === 'fail' ? 'FAIL' : r.outcome,
    r.operationId,
    r.method,
    String(r.status ?? '-'),
    r.checks.join(', '),
    [...r.problems, r.note].filter(Boolean).join('; '),
  ]);
  const widths = [4, 9, 6, 6, 5].map((w, i) => Math.max(w, ...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd();
  return [line(['', 'operation', 'method', 'status', 'checks', 'problems and notes']), ...rows.map(line), '', summary(results)].join('\n');
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JUnit XML: one test case per row, for a CI's test report. */
export function junitXml(results: CheckResult[]): string {
  const failures = results.filter((r) => r.outcome === 'fail').length;
  const skips = results.filter((r) => r.outcome === 'skip').length;
  const cases = results.map((r) => {
    const name = `${r.method} ${r.url} (${r.operationId})`;
    const inner =
      r.outcome === 'fail'
        ? `<failure message="${xml(r.problems.join('; '))}">${xml(r.problems.join('\n'))}</failure>`
        : r.outcome === 'skip'
          ? `<skipped message="${xml(r.note)}"/>`
          : '';
    return `    <testcase classname="contract.${xml(r.operationId)}" name="${xml(name)}">${inner}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract check" tests="${results.length}" failures="${failures}" skipped="${skips}">`,
    `  <testsuite name="contract check" tests="${results.length}" failures="${failures}" skipped="${skips}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
