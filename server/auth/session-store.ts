// Sessions in the database. The cookie carries a random token; the table keeps only its
// SHA-256, so reading the table does not give anyone a usable cookie.
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { ExpiringCache } from '../db/expiring-cache.js';
import { perDatabase } from '../db/per-database.js';
import type { Role } from './users.js';

/** Who is calling, as route handlers see it on `request.user`. */
export interface SessionUser {
  id: string;
  email: string;
  /**
   * Effective role. During View As an admin acts as the coordinator of the chosen
   * congregation, so this reads study_helper_coordinator (own_role keeps the real one).
   */
  role: Role;
  /** Effective congregation: the acting one during View As, else the user's own (or null). */
  congregation_id: string | null;
  is_admin: boolean;
  own_role: Role;
  own_congregation_id: string | null;
  /** Set while an is_admin user views the portal as a congregation. */
  acting_congregation_id: string | null;
  session_id: string;
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  db: Database,
  userId: string,
  ttlHours: number,
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = newSessionToken();
  const sessionId = sessionIdOf(token);
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
  await db.query('INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)', [sessionId, userId, expiresAt]);
  return { token, sessionId, expiresAt };
}

interface SessionRow {
  session_id: string;
  acting_congregation_id: string | null;
  id: string;
  email: string;
  role: Role;
  congregation_id: string | null;
  is_admin: boolean;
}

/**
 * Signed-in callers are remembered for this long per session, so most requests cost no session
 * query (a third of a list call's work). Sign-out and View As here forget the entry at once; a
 * change made elsewhere (another server process, the users CLI) shows within this time, the
 * window in which the web client already merges repeated requests (spec section 9: 2 s).
 */
export const SESSION_CACHE_MS = 2000;
const MAX_CACHED_SESSIONS = 10_000;

const sessionCache = perDatabase(() => new ExpiringCache<SessionUser>(MAX_CACHED_SESSIONS));

export async function loadSessionUser(db: Database, token: string): Promise<SessionUser | null> {
  // Tokens are 43 base64url characters; anything else cannot be ours and costs no query.
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  const sessionId = sessionIdOf(token);
  const cache = sessionCache(db);
  const now = Date.now();
  const cached = cache.get(sessionId, now);
  if (cached !== undefined) return cached;
  const row = await db.maybeOne<SessionRow & { expires_at: Date }>(
    `SELECT s.id AS session_id, s.acting_congregation_id, s.expires_at, u.id, u.email, u.role, u.congregation_id, u.is_admin
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1 AND s.expires_at > now()`,
    [sessionId],
  );
  if (row === null) {
    cache.delete(sessionId);
    return null;
  }
  const user = toSessionUser(row);
  cache.set(sessionId, user, Math.min(now + SESSION_CACHE_MS, new Date(row.expires_at).getTime()));
  return user;
}

/** Forget what this process remembers of a session (after changing or ending it). */
function forgetSession(db: Database, sessionId: string): void {
  sessionCache(db).delete(sessionId);
}

export function toSessionUser(row: SessionRow): SessionUser {
  // A user who lost is_admin also loses a View As still stored on the session.
  const acting = row.is_admin ? row.acting_congregation_id : null;
  return {
    id: row.id,
    email: row.email,
    role: acting === null ? row.role : 'study_helper_coordinator',
    congregation_id: acting ?? row.congregation_id,
    is_admin: row.is_admin,
    own_role: row.role,
    own_congregation_id: row.congregation_id,
    acting_congregation_id: acting,
    session_id: row.session_id,
  };
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id = $1', [sessionIdOf(token)]);
  forgetSession(db, sessionIdOf(token));
}

export async function setActingCongregation(db: Database, sessionId: string, congregationId: string | null): Promise<void> {
  await db.query('UPDATE sessions SET acting_congregation_id = $2 WHERE id = $1', [sessionId, congregationId]);
  forgetSession(db, sessionId);
}

export async function deleteExpiredSessions(db: Database): Promise<number> {
  return db.execute('DELETE FROM sessions WHERE expires_at <= now()');
}
