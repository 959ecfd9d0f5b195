import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../auth/passwords.js';
import type { Database } from '../../db/database.js';
import { createTestDb } from '../../../tests/helpers/test-db.js';
import { UsageError, runUsersCommand } from '../users.js';

describe('users CLI commands', () => {
  let db: Database;
  let congregationId: string;

  beforeAll(async () => {
    db = await createTestDb({ referenceData: false });
    ({ id: congregationId } = await db.one<{ id: string }>(
      `INSERT INTO congregations (wbs_code, display_name) VALUES ('TN 55501', 'Test') RETURNING id`,
    ));
  }, 30_000);

  afterAll(async () => {
    await db?.close();
  });

  it('adds users with role, congregation, admin flag and password', async () => {
    expect(
      await runUsersCommand(db, ['add', 'Coord@Example.org', '--role', 'study_helper_coordinator', '--congregation', 'TN 55501', '--password', 'pw']),
    ).toBe('Saved coord@example.org (study_helper_coordinator, TN 55501)');
    expect(await runUsersCommand(db, ['add', 'root@example.org', '--role', 'scanning_admin', '--admin'])).toBe(
      'Saved root@example.org (scanning_admin, admin)',
    );
    const coordinator = await db.one<{ role: string; congregation_id: string; is_admin: boolean; password_hash: string }>(
      `SELECT role, congregation_id, is_admin, password_hash FROM users WHERE email = 'coord@example.org'`,
    );
    expect(coordinator).toMatchObject({ role: 'study_helper_coordinator', congregation_id: congregationId, is_admin: false });
    expect(await verifyPassword('pw', coordinator.password_hash)).toBe(true);
    expect(await verifyPassword('other', coordinator.password_hash)).toBe(false);
  });

  it('lists users', async () => {
    const listing = await runUsersCommand(db, ['list']);
    expect(listing.split('\n')).toEqual([
      'coord@example.org\tstudy_helper_coordinator\tTN 55501',
      'root@example.org\tscanning_admin\t-\tadmin',
    ]);
  });

  it('changes a role and removes a user', async () => {
    expect(await runUsersCommand(db, ['set-role', 'ROOT@example.org', 'standard_user'])).toBe(
      'root@example.org is now standard_user',
    );
    expect(await runUsersCommand(db, ['remove', 'root@example.org'])).toBe('Removed root@example.org');
    expect(await db.query(`SELECT 1 FROM users WHERE email = 'root@example.org'`)).toEqual([]);
  });

  it('refuses mistakes with a usage error', async () => {
    const cases: [string[], string][] = [
      [['add', 'x@example.org', '--role', 'king'], 'Unknown role "king"'],
      [['add', 'not-an-email'], 'is not an e-mail address'],
      [['add', 'x@example.org', '--congregation', 'XX 0000'], 'No congregation with WBS code "XX 0000"'],
      [['add', 'x@example.org', '--role', 'study_helper_coordinator'], 'needs --congregation'],
      [['set-role', 'nobody@example.org', 'standard_user'], 'No user nobody@example.org'],
      [['set-role', 'coord@example.org', 'emperor'], 'Unknown role'],
      [['remove', 'nobody@example.org'], 'No user nobody@example.org'],
      [['fly'], 'Unknown command "fly"'],
      [[], 'No command given'],
    ];
    for (const [argv, message] of cases) {
      const error = await runUsersCommand(db, argv).catch((e: unknown) => e);
      expect(error, argv.join(' ')).toBeInstanceOf(UsageError);
      expect((error as Error).message).toContain(message);
    }
    await expect(runUsersCommand(db, ['add', 'x@example.org', '--bogus'])).rejects.toMatchObject({
      code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION',
    });
  });
});

describe('npm run users (the real command on an embedded database)', () => {
  let dataDir: string;
  const run = promisify(execFile);
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  const cli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/cli/users.ts'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'users-cli-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('adds and lists a user, and exits 2 with the usage on a mistake', async () => {
    const added = await cli(['add', 'Admin@Example.org', '--role', 'scanning_admin', '--admin']);
    expect(added.stdout.trim()).toBe('Saved admin@example.org (scanning_admin, admin)');
    const listed = await cli(['list']);
    expect(listed.stdout.trim()).toBe('admin@example.org\tscanning_admin\t-\tadmin');
    const failed = await cli(['set-role', 'admin@example.org', 'pope']).catch((e: unknown) => e as { code: number; stderr: string });
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('Usage: npm run users');
  }, 60_000);
});
