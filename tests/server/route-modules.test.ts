// Every operation of the contract is registered in the route module of its first tag:
// server/routes/<tag>.ts or a file under server/routes/<tag>/ (sign-in and /healthz stay in
// server/auth/routes.ts and server/app.ts). Read from the sources: the bundled contract for the
// tags, and each server file's `app.<method>(path` registrations.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Where the operations of these tags live instead of server/routes/<tag>. */
const KEPT_ELSEWHERE: Record<string, string> = { auth: 'server/auth/routes.ts', health: 'server/app.ts' };

interface ContractOperation {
  id: string;
  tag: string;
  /** METHOD and the path in Fastify's syntax, e.g. "GET /api/file/:file_id.pdf". */
  route: string;
}

function contractOperations(): ContractOperation[] {
  const document = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8')) as {
    paths: Record<string, Partial<Record<(typeof METHODS)[number], { operationId: string; tags: string[] }>>>;
  };
  return Object.entries(document.paths).flatMap(([contractPath, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      if (op === undefined) return [];
      const routePath = contractPath.replace(/\{([^}]+)\}/g, ':$1');
      return [{ id: op.operationId, tag: op.tags[0]!, route: `${method.toUpperCase()} ${routePath}` }];
    }),
  );
}

function serverSources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : serverSources(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** "METHOD /path" -> the server files that register it with app.<method>('/path', ...). */
function registrations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const call = /\bapp\.(get|post|put|patch|delete)\b[^(]*\(\s*'([^']+)'/g;
  for (const file of serverSources('server')) {
    for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(call)) {
      const route = `${match[1]!.toUpperCase()} ${match[2]}`;
      found.set(route, [...(found.get(route) ?? []), file]);
    }
  }
  return found;
}

function isTagModule(file: string, tag: string): boolean {
  if (tag in KEPT_ELSEWHERE) return file === KEPT_ELSEWHERE[tag];
  return file === `server/routes/${tag}.ts` || file.startsWith(`server/routes/${tag}/`);
}

describe('route modules', () => {
  const operations = contractOperations();
  const registered = registrations();

  it('reads the whole contract', () => {
    // 78 operations at the time of writing; the scan below must see every one of them.
    expect(operations.length).toBeGreaterThanOrEqual(78);
    expect(operations.filter((op) => op.tag === undefined)).toEqual([]);
  });

  it('registers every operation once, in the module of its first tag', () => {
    const misplaced = operations
      .map((op) => ({ operation: op.id, tag: op.tag, files: registered.get(op.route) ?? [] }))
      .filter(({ tag, files }) => files.length !== 1 || !isTagModule(files[0]!, tag));
    expect(misplaced).toEqual([]);
  });

  it('tells a module outside the tag from the tag module', () => {
    expect(isTagModule('server/routes/files/workflow.ts', 'files')).toBe(true);
    expect(isTagModule('server/routes/files.ts', 'files')).toBe(true);
    expect(isTagModule('server/routes/workflow.ts', 'files')).toBe(false);
    expect(isTagModule('server/routes/files-extra.ts', 'files')).toBe(false);
    expect(isTagModule('server/routes/study-helpers.ts', 'students')).toBe(false);
  });
});
