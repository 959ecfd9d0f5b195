// `npm run users -- <command>`: manage who may do what.
//   add EMAIL --role ROLE [--congregation WBS] [--admin] [--password PW]
//   list
//   set-role EMAIL ROLE
//   remove EMAIL
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ROLES, isRole, listUsers, normaliseEmail, removeUser, saveUser, setUserRole } from '../auth/users.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { openDatabase } from '../db/open-database.js';

export const USAGE = `Usage: npm run users -- <command>
  add EMAIL --role ROLE [--congregation WBS] [--admin] [--password PW]
  list
  set-role EMAIL ROLE
  remove EMAIL
Roles: ${ROLES.join(', ')}`;

export class UsageError extends Error {}

/** Runs one command against db; returns what to print. Separate from main() for tests. */
export async function runUsersCommand(db: Database, argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'add': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          role: { type: 'string' },
          congregation: { type: 'string' },
          admin: { type: 'boolean', default: false },
          password: { type: 'string' },
        },
      });
      const email = positionals[0];
      if (email === undefined || positionals.length !== 1) throw new UsageError('add needs exactly one EMAIL');
      if (!email.includes('@')) throw new UsageError(`"${email}" is not an e-mail address`);
      const role = values.role ?? 'standard_user';
      if (!isRole(role)) throw new UsageError(`Unknown role "${role}"`);
      let congregationId: string | null = null;
      if (values.congregation !== undefined) {
        const congregation = await db.maybeOne<{ id: string }>('SELECT id FROM congregations WHERE wbs_code = $1', [
          values.congregation,
        ]);
        if (congregation === null) throw new UsageError(`No congregation with WBS code "${values.congregation}"`);
        congregationId = congregation.id;
      }
      if (role === 'study_helper_coordinator' && congregationId === null) {
        throw new UsageError('A study_helper_coordinator needs --congregation WBS');
      }
      if (values.password === '') throw new UsageError('--password must not be empty');
      const user = await saveUser(db, { email, role, congregationId, isAdmin: values.admin, password: values.password });
      return `Saved ${user.email} (${user.role}${user.is_admin ? ', admin' : ''}${
        values.congregation ? `, ${values.congregation}` : ''
      })`;
    }
    case 'list': {
      const users = await listUsers(db);
      if (users.length === 0) return 'No users.';
      return users
        .map((user) => [user.email, user.role, user.wbs_code ?? '-', user.is_admin ? 'admin' : ''].join('\t').trimEnd())
        .join('\n');
    }
    case 'set-role': {
      const [email, role, extra] = rest;
      if (email === undefined || role === undefined || extra !== undefined) throw new UsageError('set-role needs EMAIL ROLE');
      if (!isRole(role)) throw new UsageError(`Unknown role "${role}"`);
      const user = await setUserRole(db, email, role);
      if (user === null) throw new UsageError(`No user ${normaliseEmail(email)}`);
      return `${user.email} is now ${user.role}`;
    }
    case 'remove': {
      const [email, extra] = rest;
      if (email === undefined || extra !== undefined) throw new UsageError('remove needs EMAIL');
      if (!(await removeUser(db, email))) throw new UsageError(`No user ${normaliseEmail(email)}`);
      return `Removed ${normaliseEmail(email)}`;
    }
    default:
      throw new UsageError(command === undefined ? 'No command given' : `Unknown command "${command}"`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db);
    console.log(await runUsersCommand(db, argv));
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  } finally {
    await db.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
