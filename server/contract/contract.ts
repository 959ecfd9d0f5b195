// The contract as the server reads it: the bundled OpenAPI document (generated/openapi.json),
// its operations keyed by method and Fastify route path, with $refs resolved.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root';
import { operationsOf, type Operation } from './operations';

export { dereference, operationsOf, toRoutePath } from './operations';
export type { Access, Operation, ParameterSpec } from './operations';

type Json = Record<string, unknown>;

const documentPath = join(PROJECT_ROOT, 'generated', 'openapi.json');
let cached: { document: Json; operations: Operation[] } | undefined;

function load(): { document: Json; operations: Operation[] } {
  const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Json;
  return { document, operations: operationsOf(document) };
}

export function contract(): { document: Json; operations: Operation[] } {
  cached ??= load();
  return cached;
}

export function findOperation(method: string, routePath: string): Operation | undefined {
  return contract().operations.find((op) => op.method === method && op.routePath === routePath);
}
