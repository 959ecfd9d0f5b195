// Functions are read in one screen: no function of the product has more than 80 lines of its own
// (lines inside nested functions, blank lines and comment-only lines not counted).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionLengths } from './own-lines';

const MAX_OWN_LINES = 80;
const ROOT = path.resolve(import.meta.dirname, '../..');
const CHECKED_FOLDERS = ['server', 'src', 'machines'];

/** At most two functions may stay longer, each with the reason why (`file:name`). */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([]);

function productFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').includes('__tests__'))
    .sort();
}

/** `file:line name (N lines)` for each function of `text` over the limit. */
function tooLong(file: string, text: string): { key: string; report: string }[] {
  return functionLengths(file, text)
    .filter((fn) => fn.ownLines > MAX_OWN_LINES)
    .map((fn) => ({ key: `${file}:${fn.name}`, report: `${file}:${fn.line} ${fn.name} (${fn.ownLines} lines)` }));
}

const body = (lines: number, indent = '  ') => Array.from({ length: lines }, (_, i) => `${indent}total += ${i};`).join('\n');

describe('own lines of a function', () => {
  it('fails a function of 90 lines of its own', () => {
    const source = `export function long(): number {\n  let total = 0;\n${body(86)}\n  return total;\n}\n`;
    expect(tooLong('inline.ts', source).map((fn) => fn.report)).toEqual(['inline.ts:1 long (90 lines)']);
  });

  it('passes 70 lines holding a nested function of 40: the nested lines are its own', () => {
    const nested = `  const inner = (): number => {\n    let total = 0;\n${body(36, '    ')}\n    return total;\n  };`;
    const source = `export function outer(): number {\n  let total = inner();\n${nested}\n${body(66)}\n  return total;\n}\n`;
    expect(functionLengths('inline.ts', source).map((fn) => [fn.name, fn.ownLines])).toEqual([
      ['outer', 70],
      ['inner', 40],
    ]);
    expect(tooLong('inline.ts', source)).toEqual([]);
  });

  it('does not count blank lines or comments', () => {
    const source = `function f() {\n  // why\n\n  /* more\n     why */\n  /** doc */\n  return 1; // trailing\n}\n`;
    expect(functionLengths('inline.ts', source)).toEqual([{ line: 1, name: 'f', ownLines: 3 }]);
  });
});

describe(`no function over ${MAX_OWN_LINES} lines of its own`, () => {
  it('lists none outside the exceptions', { timeout: 180_000 }, () => {
    expect(EXCEPTIONS.size).toBeLessThanOrEqual(2);
    const offenders = CHECKED_FOLDERS.flatMap(productFiles)
      .flatMap((file) => tooLong(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders.filter((fn) => !EXCEPTIONS.has(fn.key)).map((fn) => fn.report)).toEqual([]);
    // An exception whose function was shortened leaves the list.
    expect([...EXCEPTIONS.keys()].filter((key) => !offenders.some((fn) => fn.key === key))).toEqual([]);
  });
});
