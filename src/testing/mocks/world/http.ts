// What every mock-world handler shares: the world being served, who is asking, paging, sorting,
// the spec's error shapes, and the stand-ins for images, PDFs and progress streams.
import { HttpResponse, type HttpHandler, type JsonBodyType, type http } from 'msw';
import type { components } from '../../../../generated/api-types';
import type { Viewer } from './views';
import type { World } from './world';

type S = components['schemas'];

export interface WorldAccess {
  /** The world as it is now (a scenario switch or a reset replaces it). */
  world(): World;
  /** null: a scanning admin; otherwise the congregation the user acts for ('' for none). */
  viewer(): Viewer;
  /** The signed-in user's e-mail: Review records its mends as made by them. */
  userEmail(): string;
  /** The signed-in user's role (null: nobody): a member may not keep its congregation's addresses. */
  userRole(): S['Role'] | null;
  /** How long a progress stream waits between two messages. */
  progressIntervalMs: number;
}

/** What MSW hands a resolver: the request, its path params (named as in the contract), its cookies. */
export type CallInfo = Parameters<Parameters<typeof http.get>[1]>[0];

/** A world responder: the operation's success body as the contract types it, or a whole Response. */
export type Responder<T> = (info: CallInfo) => T | Response | Promise<T | Response>;

/**
 * The generated handler of an operation (so its method, path and body type are the contract's),
 * answering with `responder`. The generated handler sends only the success body with the success
 * status, so a whole Response (a refusal, a file, an image, a stream, tus headers) is thrown: MSW
 * sends a Response thrown by a resolver as it is.
 */
export function answer<T>(generated: (override: (info: CallInfo) => Promise<T>) => HttpHandler, responder: Responder<NoInfer<T>>): HttpHandler {
  return generated(async (info) => {
    const reply = await responder(info);
    if (reply instanceof Response) throw reply;
    return reply;
  });
}

export function json<T extends JsonBodyType>(body: T, status = 200): Response {
  return HttpResponse.json(body, { status });
}

export const notFound = (what = 'Not found') => json<S['ErrorSimple']>({ detail: what }, 404);

/** A coordinator calling an admin-only operation (x-access admin). */
export const forbidden = () => json<S['ErrorSimple']>({ detail: 'Forbidden' }, 403);

/** "3 files and 1 student" for the counts that are not 0, or null when all are. */
export function uses(counts: readonly [number, string, string][]): string | null {
  const parts = counts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/** An error in the spec's shape `{"detail": {"error_type", "message"}}` (spec §8). */
export function refusal(status: number, error_type: string, message: string): Response {
  return json<S['ErrorWithType']>({ detail: { error_type, message } }, status);
}

/** `items` cut to the request's skip and limit, with their total (contract Paging). */
export function paged<T>(url: URL, rows: readonly T[]): { items: T[]; total: number; skip: number; limit: number } {
  const number = (name: string, fallback: number, max: number) => {
    const value = Number(url.searchParams.get(name) ?? fallback);
    return Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback;
  };
  const skip = number('skip', 0, Number.MAX_SAFE_INTEGER);
  const limit = number('limit', 10, 500);
  return { items: rows.slice(skip, skip + limit), total: rows.length, skip, limit };
}

/** Rows sorted by the request's order_by (one of `keys`, else `fallback`) and order_direction. */
export function sorted<T>(
  url: URL,
  rows: readonly T[],
  keys: Record<string, (row: T) => string | number | null>,
  fallback: string,
  defaultDirection: 'asc' | 'desc' = 'asc',
): T[] {
  const asked = url.searchParams.get('order_by') ?? fallback;
  const key = keys[asked] ?? (keys[fallback] as (row: T) => string | number | null);
  const direction = (url.searchParams.get('order_direction') ?? defaultDirection) === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const left = key(a);
    const right = key(b);
    if (left === right) return 0;
    if (left === null) return 1;
    if (right === null) return -1;
    return (left < right ? -1 : 1) * direction;
  });
}

/** Text filters match a part of the text, ignoring case. */
export const contains = (text: string | null | undefined, part: string | null) =>
  part === null || part.trim() === '' || (text ?? '').toLowerCase().includes(part.trim().toLowerCase());

/** A scan page image (SVG: a sheet with the lines a student writes on), the same for the same page. */
export function scanImage(title: string, subtitle: string): Response {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const lines = Array.from({ length: 18 }, (_, index) => `<line x1="60" x2="790" y1="${260 + index * 42}" y2="${260 + index * 42}" stroke="#c8ccd4" stroke-width="2"/>`).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="850" height="1100" viewBox="0 0 850 1100">` +
    `<rect width="850" height="1100" fill="#fbfaf6"/><rect x="700" y="40" width="110" height="110" fill="none" stroke="#222" stroke-width="6"/>` +
    `<text x="60" y="110" font-family="sans-serif" font-size="34" fill="#222">${escape(title)}</text>` +
    `<text x="60" y="170" font-family="sans-serif" font-size="24" fill="#555">${escape(subtitle)}</text>${lines}</svg>`;
  return new HttpResponse(svg, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' } });
}

/** A one-page PDF saying what it stands for, downloaded under `fileName`. */
export function pdf(fileName: string, text: string): Response {
  const line = text.replace(/[()\\]/g, ' ');
  const stream = `BT /F1 18 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new HttpResponse(body, {
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${fileName.replace(/"/g, '')}"` },
  });
}

/**
 * A server-sent event stream (text/event-stream, as EventSource reads it) of `messages`, one every
 * `intervalMs`. `beforeLast` runs just before the last message goes out, so a screen that reloads on
 * it reads the world as the job left it.
 */
export function progressStream(messages: readonly S['ProgressMessage'][], intervalMs: number, beforeLast: () => void): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // A finished job's stream is not reopened soon by EventSource.
      controller.enqueue(encoder.encode('retry: 60000\n\n'));
      let index = 0;
      const push = () => {
        if (index === messages.length - 1) beforeLast();
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(messages[index])}\n\n`));
        index += 1;
        if (index < messages.length) timer = setTimeout(push, intervalMs);
        else controller.close();
      };
      push();
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}

/** The messages of a job over `count` items: 0, ¼, ½, ¾ done, then its end (success or failed). */
export function progressMessages(count: number, outcome: 'success' | 'failed'): S['ProgressMessage'][] {
  const steps = [0, 0.25, 0.5, 0.75].map((share) => ({ status: 'running' as const, completed: Math.floor(count * share), count, failed: 0 }));
  const end =
    outcome === 'success'
      ? { status: 'success' as const, completed: count, count, failed: 0 }
      : { status: 'failed' as const, completed: Math.floor(count / 2), count, failed: count - Math.floor(count / 2), message: 'The job failed.' };
  return [...steps, end];
}
