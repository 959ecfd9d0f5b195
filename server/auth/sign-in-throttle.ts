// Password guessing on the embedded provider's sign-in page: after MAX_FAILURES wrong passwords
// for one e-mail within the window, that e-mail's sign-in is refused, without checking the
// password, until the oldest failure leaves the window. Counted per e-mail rather than per
// client address: behind a reverse proxy every client has the proxy's address, and a limit per
// address would lock everyone out together. Failures live in the database so that every server
// process counts the same ones.
import type { Database } from '../db/database.js';

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MINUTES = 15;

export const TOO_MANY_FAILURES_MESSAGE = `Too many failed sign-ins for this e-mail. Try again in ${FAILURE_WINDOW_MINUTES} minutes.`;

const WINDOW = `interval '${FAILURE_WINDOW_MINUTES} minutes'`;

/** Whether this e-mail has used up its failed sign-ins for now. */
export async function signInLocked(db: Database, email: string): Promise<boolean> {
  const { failures } = await db.one<{ failures: number }>(
    `SELECT count(*) AS failures FROM sign_in_failures WHERE email = $1 AND failed_at > now() - ${WINDOW}`,
    [email],
  );
  return Number(failures) >= MAX_FAILURES;
}

/** Counts a wrong e-mail or password, and forgets failures older than the window. */
export async function recordSignInFailure(db: Database, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM sign_in_failures WHERE failed_at <= now() - ${WINDOW}`);
    await tx.query('INSERT INTO sign_in_failures (email) VALUES ($1)', [email]);
  });
}

/** A successful sign-in starts the count again. */
export async function clearSignInFailures(db: Database, email: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE email = $1', [email]);
}
