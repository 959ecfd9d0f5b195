// The mock world takes its operations' methods and paths from the contract: every responder is
// passed to the operation's generated MSW handler (generated/hooks/*/*.msw.ts), so no path of the
// API is written by hand under src/testing/mocks, and every generated handler is one the world uses.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { HttpHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/project-root';
import { createMockWorld } from '../../src/testing/mocks/world';

const MOCKS = join(PROJECT_ROOT, 'src', 'testing', 'mocks');

/** "file:line: text" for each line under src/testing/mocks that writes an API path. */
function handWrittenPaths(): string[] {
  const files = readdirSync(MOCKS, { recursive: true, encoding: 'utf8' }).filter((name) => /\.tsx?$/.test(name));
  return files.flatMap((name) =>
    readFileSync(join(MOCKS, name), 'utf8')
      .split('\n')
      .flatMap((line, index) => (/\/api\/|\/healthz\b/.test(line) ? [`${relative(PROJECT_ROOT, join(MOCKS, name))}:${index + 1}: ${line.trim()}`] : [])),
  );
}

const generatedModules = import.meta.glob('../../generated/hooks/*/*.msw.ts', { eager: true }) as Record<string, Record<string, unknown>>;

/** "METHOD path" for each operation a generated handler answers. */
function generatedOperations(): string[] {
  return Object.values(generatedModules).flatMap((exports) =>
    Object.entries(exports)
      .filter(([name, value]) => /^get\w+MockHandler$/.test(name) && typeof value === 'function')
      .map(([, make]) => operationOf((make as () => HttpHandler)())),
  );
}

const operationOf = (handler: HttpHandler) => `${String(handler.info.method)} ${String(handler.info.path)}`;

describe('the mock world on the generated handlers', () => {
  it('writes no API path by hand under src/testing/mocks', () => {
    expect(handWrittenPaths()).toEqual([]);
  });

  it('answers every operation of the contract, each once, through its generated handler', () => {
    const world = createMockWorld({ scenario: 'empty', role: () => 'admin', onViewAs: () => undefined });
    const answered = world.handlers.slice(1).map((handler) => operationOf(handler));
    const generated = generatedOperations();
    expect(generated.length).toBeGreaterThan(80);
    expect([...answered].sort()).toEqual([...generated].sort());
  });
});
