// User rows: who may do what. The identity provider only says who someone is (an e-mail);
// role, congregation and is_admin live here and are managed by the CLI and ADMIN_EMAILS.
import type { Database } from '../db/database.js';
import { roleValues } from '../../generated/api-types.js';
import type { Role } from '../contract/access.js';
import { hashPassword } from './passwords.js';

export type { Role };
/** The contract's roles, in its order. */
export const ROLES = roleValues;

export interface UserRow {
  id: string;
  email: string;
  role: Role;
  congregation_id: string | null;
  is_admin: boolean;
  created_at: Date;
}

const USER_COLUMNS = 'id, email, role, congregation_id, is_admin, created_at';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  return db.maybeOne<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [normaliseEmail(email)]);
}

export async function findUserById(db: Database, id: string): Promise<UserRow | null> {
  return db.maybeOne<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
}

export interface NewUser {
  email: string;
  role?: Role;
  congregationId?: string | null;
  isAdmin?: boolean;
  /** Only for sign-in through the embedded provider. */
  password?: string;
}

/** Creates the user, or updates role/congregation/admin/password of an existing one. */
export async function saveUser(db: Database, user: NewUser): Promise<UserRow> {
  const passwordHash = user.password === undefined ? null : await hashPassword(user.password);
  return db.one<UserRow>(
    `INSERT INTO users (email, role, congregation_id, is_admin, password_hash)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (email) DO UPDATE SET
       role = EXCLUDED.role,
       congregation_id = EXCLUDED.congregation_id,
       is_admin = EXCLUDED.is_admin,
       password_hash = COALESCE(EXCLUDED.password_hash, users.password_hash)
     RETURNING ${USER_COLUMNS}`,
    [normaliseEmail(user.email), user.role ?? 'standard_user', user.congregationId ?? null, user.isAdmin ?? false, passwordHash],
  );
}

/**
 * The user row for someone who just signed in: unknown e-mails get a standard_user row with no
 * congregation ("No Group Assigned"); e-mails in ADMIN_EMAILS become scanning_admin + is_admin.
 */
export async function userForSignIn(db: Database, email: string, adminEmails: readonly string[]): Promise<UserRow> {
  const normalised = normaliseEmail(email);
  if (adminEmails.includes(normalised)) {
    return db.one<UserRow>(
      `INSERT INTO users (email, role, is_admin) VALUES ($1, 'scanning_admin', true)
       ON CONFLICT (email) DO UPDATE SET role = 'scanning_admin', is_admin = true
       RETURNING ${USER_COLUMNS}`,
      [normalised],
    );
  }
  // The no-op update makes RETURNING give the row in both cases, in one statement.
  return db.one<UserRow>(
    `INSERT INTO users (email) VALUES ($1)
     ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
     RETURNING ${USER_COLUMNS}`,
    [normalised],
  );
}

export async function listUsers(db: Database): Promise<(UserRow & { wbs_code: string | null })[]> {
  return db.query(
    `SELECT u.id, u.email, u.role, u.congregation_id, u.is_admin, u.created_at, c.wbs_code
     FROM users u LEFT JOIN congregations c ON c.id = u.congregation_id
     ORDER BY u.email`,
  );
}

export async function setUserRole(db: Database, email: string, role: Role): Promise<UserRow | null> {
  return db.maybeOne<UserRow>(`UPDATE users SET role = $2 WHERE email = $1 RETURNING ${USER_COLUMNS}`, [
    normaliseEmail(email),
    role,
  ]);
}

export async function removeUser(db: Database, email: string): Promise<boolean> {
  return (await db.execute('DELETE FROM users WHERE email = $1', [normaliseEmail(email)])) > 0;
}
