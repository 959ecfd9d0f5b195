// The one way the web app talks to the server, as spec section 7 describes: same origin, JSON,
// query strings, multipart when a file is present, 204/empty = {}, failed responses thrown with
// their status and body. `fetch` is looked up at call time so MSW can intercept it in tests.
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/api-types';

/** A failed HTTP answer, thrown to the caller with what the server said. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly body: unknown,
  ) {
    super(`Request failed: ${status} ${statusText}`);
    this.name = 'ApiError';
  }
}

function origin(): string {
  return globalThis.location?.origin ?? 'http://localhost';
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return {};
  const text = await response.text();
  if (text === '') return {};
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return JSON.parse(text);
  return text;
}

/**
 * The fetcher the generated TanStack Query hooks call (orval mutator).
 * orval sets `Content-Type: multipart/form-data` without a boundary: drop it and let fetch set it.
 */
export async function apiFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body instanceof FormData) headers.delete('content-type');
  else if (init.body !== undefined && !headers.has('content-type'))
    headers.set('content-type', 'application/json');
  headers.set('accept', 'application/json');
  const response = await globalThis.fetch(new URL(url, origin()), {
    ...init,
    headers,
    credentials: 'same-origin',
  });
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, response.statusText, body);
  return body as T;
}

/** A typed client for calls made outside hooks (downloads, uploads with progress, scripts). */
export const apiClient = createClient<paths>({
  baseUrl: origin(),
  fetch: (request: Request) => globalThis.fetch(request),
});
apiClient.use({
  async onResponse({ response }) {
    if (!response.ok) {
      const body = await readBody(response.clone());
      throw new ApiError(response.status, response.statusText, body);
    }
    if (response.status === 204 || response.headers.get('content-length') === '0') {
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    }
    return undefined;
  },
});

/** The file name a download should get: Content-Disposition's, else `{id}.pdf`. */
export function downloadFileName(contentDisposition: string | null, id: string): string {
  if (contentDisposition) {
    const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(contentDisposition);
    if (star?.[1]) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    const plain = /filename="?([^";]+)"?/i.exec(contentDisposition);
    if (plain?.[1]) return plain[1].trim();
  }
  return `${id}.pdf`;
}

/**
 * Downloads a PDF and hands it to the browser under its server-given name.
 * A failed download throws "Download failed: {status text}".
 */
export async function downloadPdf(url: string, id: string): Promise<string> {
  const response = await globalThis.fetch(new URL(url, origin()), { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Download failed: ${response.statusText}`);
  const name = downloadFileName(response.headers.get('content-disposition'), id);
  const blob = await response.blob();
  if (typeof document !== 'undefined' && typeof URL.createObjectURL === 'function') {
    const href = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = href;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(href);
  }
  return name;
}
