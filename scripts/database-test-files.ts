// Which test files reach a database: the file itself, or a helper it imports from tests/ (one
// level down), names a database or what opens one. Used by test:pg to run on PostgreSQL only
// the files that can pass or fail by the database; when in doubt a file counts as reaching one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const OPENS_A_DATABASE =
  /\bDatabase\b|createTestDb|createTestApp|createPipelineApp|useRouteTests|openPglite|openPostgres|openDatabase|DATABASE_URL|buildApp|startWorker|server\/main/;
const TEST_FILE = /\.test\.tsx?$/;
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules') return [];
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return testFiles(full);
    return TEST_FILE.test(name) ? [full] : [];
  });
}

function source(file: string): string | null {
  for (const candidate of [file, `${file}.ts`, `${file}.tsx`, file.replace(/\.js$/, '.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return readFileSync(candidate, 'utf8');
  }
  return null;
}

function reachesDatabase(root: string, file: string): boolean {
  const text = readFileSync(file, 'utf8');
  if (OPENS_A_DATABASE.test(text)) return true;
  for (const match of text.matchAll(IMPORT)) {
    const target = resolve(dirname(file), match[1]!);
    // Helpers of the tests (tests/...): the product's own modules are what the file tests.
    if (!relative(root, target).startsWith('tests')) continue;
    const helper = source(target);
    if (helper === null || OPENS_A_DATABASE.test(helper)) return true;
  }
  return false;
}

export function testFilesOnDatabase(root: string, dirs: string[]): { onDatabase: string[]; without: string[] } {
  const all = dirs.flatMap((dir) => testFiles(join(root, dir))).sort();
  const onDatabase: string[] = [];
  const without: string[] = [];
  for (const file of all) (reachesDatabase(root, file) ? onDatabase : without).push(relative(root, file));
  return { onDatabase, without };
}
