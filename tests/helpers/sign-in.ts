// Signs a user in without the OpenID round trip: creates (or updates) the user row and a
// session directly, and returns the headers a browser would send.
import type { FastifyInstance } from 'fastify';
import { createSession } from '../../server/auth/session-store.js';
import { sessionCookieName } from '../../server/auth/session.js';
import { findUserByEmail, saveUser, type Role, type UserRow } from '../../server/auth/users.js';

export interface SignInOptions {
  role?: Role;
  congregationId?: string | null;
  isAdmin?: boolean;
}

export interface SignedIn {
  user: UserRow;
  /** "session=<token>", ready for a Cookie header. */
  cookie: string;
  /** Cookie plus the Origin the CSRF check wants on mutating calls. */
  headers: { cookie: string; origin: string };
}

/**
 * An unknown e-mail becomes a row with the given options (standard_user by default); a known
 * one keeps its row unless options are given.
 */
export async function signIn(app: FastifyInstance, email: string, options: SignInOptions = {}): Promise<SignedIn> {
  const { db, config } = app;
  const existing = await findUserByEmail(db, email);
  const user =
    existing !== null && Object.keys(options).length === 0
      ? existing
      : await saveUser(db, {
          email,
          role: options.role ?? existing?.role ?? 'standard_user',
          congregationId: options.congregationId === undefined ? (existing?.congregation_id ?? null) : options.congregationId,
          isAdmin: options.isAdmin ?? existing?.is_admin ?? false,
        });
  const session = await createSession(db, user.id, config.sessionTtlHours);
  const cookie = `${sessionCookieName(config.publicUrl)}=${session.token}`;
  return { user, cookie, headers: { cookie, origin: new URL(config.publicUrl).origin } };
}
