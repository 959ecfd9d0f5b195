// Password guessing on the embedded provider's sign-in page, slowed without ever locking anyone
// out (a refusal would be a weapon: 20 wrong passwords for random e-mails from a shared address,
// say a proxy's, would refuse every sign-in from it):
// - past MAX_FAILURES failures for an e-mail (from all addresses), every attempt at it waits a
//   delay that doubles with each further failure, up to MAX_DELAY_MS;
// - past MAX_FAILURES_PER_ADDRESS failures from one address (whatever the e-mails: one password
//   sprayed over many), every attempt from it waits the same way;
// - the wait is the larger of the two, and after it the right password signs in.
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

export const TOO_MANY_STARTS_MESSAGE = 'Too many sign-ins started from this network. Try again in a minute.';

const WINDOW = `interval '${FAILURE_WINDOW_MINUTES} minutes'`;

/** The wait once `failures` exceed `allowed`: doubling from FIRST_DELAY_MS, capped at MAX_DELAY_MS. */
export function delayAfter(failures: number, allowed: number): number {
  if (failures < allowed) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(failures - allowed, 16));
}

/** How long to wait before checking a password for this e-mail from this address. */
export async function signInDelayMs(db: Database, email: string, address: string): Promise<number> {
  const counts = await db.one<{ address: number; email: number }>(
    `SELECT count(*) FILTER (WHERE client_address = $2) AS address,
            count(*) FILTER (WHERE email = $1) AS email
     FROM sign_in_failures
     WHERE (email = $1 OR client_address = $2) AND failed_at > now() - ${WINDOW}`,
    [email, address],
  );
  return Math.max(delayAfter(Number(counts.email), MAX_FAILURES), delayAfter(Number(counts.address), MAX_FAILURES_PER_ADDRESS));
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
