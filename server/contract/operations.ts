// The operations of a bundled OpenAPI document, with $refs resolved: what the server binds its
// routes to and what the contract check calls. Pure (no file access), so the contract check can
// be bundled into one script that runs anywhere.
export type Access = 'public' | 'user' | 'congregation' | 'admin';

export interface ParameterSpec {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The path as the contract spells it, e.g. /api/file/{file_id}.pdf */
  path: string;
  /** The same path in Fastify's syntax, e.g. /api/file/:file_id.pdf */
  routePath: string;
  access: Access;
  parameters: ParameterSpec[];
  /** JSON request body schema, when the body is JSON. */
  jsonBody?: Record<string, unknown>;
  bodyRequired: boolean;
  multipart: boolean;
  /** Response schemas by status code and content type (for text/event-stream: each event's data). */
  responses: Record<string, Record<string, Record<string, unknown> | undefined>>;
}

type Json = Record<string, unknown>;

function resolvePointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/'))
    throw new Error(`Only local $refs are supported in the bundle: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node as Json)[key], document);
}

/** Inlines every $ref (the contract has no recursive schemas), leaving a plain JSON Schema. */
export function dereference(document: Json, node: unknown, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => dereference(document, item, seen));
  if (node === null || typeof node !== 'object') return node;
  const object = node as Json;
  if (typeof object.$ref === 'string') {
    if (seen.includes(object.$ref)) throw new Error(`Recursive schema at ${object.$ref}`);
    const { $ref, ...siblings } = object;
    const target = dereference(document, resolvePointer(document, $ref as string), [
      ...seen,
      $ref as string,
    ]);
    return Object.keys(siblings).length > 0 ? { ...(target as Json), ...siblings } : target;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) {
    // Examples are documentation: they may legitimately contain keys named $ref-like text.
    out[key] = key === 'example' || key === 'examples' ? value : dereference(document, value, seen);
  }
  return out;
}

export function toRoutePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

const methods = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;

/** The operations of a bundled contract document (also used by the contract check). */
export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(document.paths as Json)) {
    const item = dereference(document, rawItem) as Json;
    for (const method of methods) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Json;
      const responses: Operation['responses'] = {};
      for (const [status, response] of Object.entries((op.responses ?? {}) as Json)) {
        const byType: Record<string, Json | undefined> = {};
        for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
          // An event stream's body is text: its x-event-data is the schema of each event's data.
          byType[type] = ((media as Json)['x-event-data'] ?? (media as Json).schema) as Json | undefined;
        }
        responses[status] = byType;
      }
      operations.push({
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        path,
        routePath: toRoutePath(path),
        access: (op['x-access'] as Access | undefined) ?? 'admin',
        parameters: [
          ...((item.parameters as ParameterSpec[] | undefined) ?? []),
          ...((op.parameters as ParameterSpec[] | undefined) ?? []),
        ],
        jsonBody: (content['application/json'] as Json | undefined)?.schema as Json | undefined,
        bodyRequired: Boolean((op.requestBody as Json | undefined)?.required),
        multipart: 'multipart/form-data' in content,
        responses,
      });
    }
  }
  return operations;
}
