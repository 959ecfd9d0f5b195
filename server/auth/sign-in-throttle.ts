// Password guessing on the embedded provider's sign-in page, limited so that it cannot be
// turned against the account's owner:
// - MAX_FAILURES wrong passwords for one e-mail from one client address within the window
//   refuse that e-mail from that address (the owner, elsewhere, still signs in);
// - MAX_FAILURES_PER_ADDRESS wrong passwords from one address, whatever the e-mails, refuse
//   that address (one password sprayed over many e-mails);
// - past MAX_FAILURES failures for an e-mail from all addresses together, every attempt at it
//   waits a delay that doubles with each further failure, up to MAX_DELAY_MS (guessing from
//   many addresses is slowed; the owner is only slowed, never refused).
// Failures live in the database so every server process counts the same ones. Starting a
// sign-in is limited per address too (each start stores a login state).
import type { Database } from '../db/database.js';

export const MAX_FAILURES = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const FAILURE_WINDOW_MINUTES = 15;
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 8000;
/** Sign-ins one client address may start per minute. */
export const MAX_STARTS_PER_MINUTE = 30;

export const TOO_MANY_FAILURES_MESSAGE = `Too many failed sign-ins for this e-mail. Try again in ${FAILURE_WINDOW_MINUTES} minutes.`;
export const TOO_MANY_FROM_ADDRESS_MESSAGE = `Too many failed sign-ins from this network. Try again in ${FAILURE_WINDOW_MINUTES} minutes.`;
export const TOO_MANY_STARTS_MESSAGE = 'Too many sign-ins started from this network. Try again in a minute.';

const WINDOW = `interval '${FAILURE_WINDOW_MINUTES} minutes'`;

export interface SignInVerdict {
  /** The message to refuse with, or null when the attempt may go ahead. */
  refused: string | null;
  /** How long to wait before checking the password. */
  delayMs: number;
}

/** The wait before an attempt at an e-mail with this many recent failures from all addresses. */
export function signInDelayMs(failuresForEmail: number): number {
  if (failuresForEmail < MAX_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(failuresForEmail - MAX_FAILURES, 16));
}

/** Whether and when a password may be checked for this e-mail from this address. */
export async function signInVerdict(db: Database, email: string, address: string): Promise<SignInVerdict> {
  const counts = await db.one<{ pair: number; address: number; email: number }>(
    `SELECT count(*) FILTER (WHERE email = $1 AND client_address = $2) AS pair,
            count(*) FILTER (WHERE client_address = $2) AS address,
            count(*) FILTER (WHERE email = $1) AS email
     FROM sign_in_failures
     WHERE (email = $1 OR client_address = $2) AND failed_at > now() - ${WINDOW}`,
    [email, address],
  );
  if (Number(counts.pair) >= MAX_FAILURES) return { refused: TOO_MANY_FAILURES_MESSAGE, delayMs: 0 };
  if (Number(counts.address) >= MAX_FAILURES_PER_ADDRESS) return { refused: TOO_MANY_FROM_ADDRESS_MESSAGE, delayMs: 0 };
  return { refused: null, delayMs: signInDelayMs(Number(counts.email)) };
}

/** Counts a wrong e-mail or password, and forgets failures older than the window. */
export async function recordSignInFailure(db: Database, email: string, address: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM sign_in_failures WHERE failed_at <= now() - ${WINDOW}`);
    await tx.query('INSERT INTO sign_in_failures (email, client_address) VALUES ($1, $2)', [email, address]);
  });
}

/**
 * A successful sign-in starts this address's count for the e-mail again. Failures from other
 * addresses stay: the owner signing in must not wipe out the count of who is guessing.
 */
export async function clearSignInFailures(db: Database, email: string, address: string): Promise<void> {
  await db.query(
    `DELETE FROM sign_in_failures WHERE (email = $1 AND client_address = $2) OR failed_at <= now() - ${WINDOW}`,
    [email, address],
  );
}

/** Whether this address has started too many sign-ins in the last minute. */
export async function tooManySignInStarts(db: Database, address: string): Promise<boolean> {
  const { started } = await db.one<{ started: number }>(
    `SELECT count(*) AS started FROM login_states WHERE client_address = $1 AND created_at > now() - interval '1 minute'`,
    [address],
  );
  return Number(started) >= MAX_STARTS_PER_MINUTE;
}
