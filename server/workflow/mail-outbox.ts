// The mail record: every message the portal sends is first written here, in the transaction of
// the event it tells of (server/workflow/notifications.ts), then sent by the mail job
// (server/jobs/send-mail.ts). One row per message and address; its key makes telling twice add
// nothing. A failed try is recorded and tried again later, each wait longer than the last.
import type { Database } from '../db/database';

/** Tries per message before it is given up as failed. */
export const MAIL_ATTEMPTS = 5;
/** Wait after the first failed try; each next wait is MAIL_BACKOFF_FACTOR times longer. */
export const MAIL_RETRY_SECONDS = 60;
export const MAIL_BACKOFF_FACTOR = 4;
/** A worker holds a message this long while sending; a claim that ran out is taken again. */
export const MAIL_CLAIM_SECONDS = 120;
/** What the record says of a message kept while no mail server is set (SMTP_URL). */
export const NO_MAIL_SERVER = 'not sent: no mail server set';

export interface Message {
  subject: string;
  text: string;
  html: string;
}

/** Seconds to wait after the given number of failed tries. */
export function retryDelaySeconds(failedTries: number): number {
  return MAIL_RETRY_SECONDS * MAIL_BACKOFF_FACTOR ** Math.max(0, failedTries - 1);
}

/**
 * Queues `message` for each address (lower case, each once). `key` names the event: a message
 * with the same key and address is queued only once, ever.
 */
export async function queueMail(db: Database, key: string, addresses: readonly string[], message: Message): Promise<number> {
  const unique = [...new Set(addresses.map((address) => address.trim().toLowerCase()).filter((address) => address !== ''))];
  if (unique.length === 0) return 0;
  const rows = await db.query<{ id: string }>(
    `INSERT INTO mail_messages (message_key, to_address, subject, text_body, html_body)
     SELECT $1 || ':' || a.address, a.address, $3, $4, $5 FROM unnest($2::text[]) AS a(address)
     ON CONFLICT (message_key) DO NOTHING RETURNING id`,
    [key, unique, message.subject, message.text, message.html],
  );
  return rows.length;
}

export interface ClaimedMail {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

const DUE = `(status = 'queued' AND next_attempt_at <= now()) OR (status = 'sending' AND claimed_until < now())`;

/** Whether a message waits to be sent now. */
export async function hasDueMail(db: Database): Promise<boolean> {
  // A database not migrated yet (POST /api/database/init is still to come) has no mail at all.
  const table = await db.one<{ present: boolean }>(`SELECT to_regclass('mail_messages') IS NOT NULL AS present`);
  if (!table.present) return false;
  return (await db.maybeOne(`SELECT 1 FROM mail_messages WHERE ${DUE} LIMIT 1`)) !== null;
}

/** Takes the oldest due message for this worker (its try counted), or null when none is due. */
export async function claimDueMail(db: Database): Promise<ClaimedMail | null> {
  return db.maybeOne<ClaimedMail>(
    `UPDATE mail_messages SET status = 'sending', attempts = attempts + 1,
            claimed_until = now() + make_interval(secs => $1)
     WHERE id = (SELECT id FROM mail_messages WHERE ${DUE} ORDER BY next_attempt_at, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, to_address, subject, text_body, html_body, attempts`,
    [MAIL_CLAIM_SECONDS],
  );
}

export async function recordSent(db: Database, id: string): Promise<void> {
  await db.query(`UPDATE mail_messages SET status = 'sent', sent_at = now(), claimed_until = NULL, error = NULL WHERE id = $1`, [id]);
}

/** Kept, never sent: no mail server is set. */
export async function recordNotSent(db: Database, id: string): Promise<void> {
  await db.query(`UPDATE mail_messages SET status = 'not_sent', claimed_until = NULL, error = $2 WHERE id = $1`, [id, NO_MAIL_SERVER]);
}

/** A failed try: tried again after a longer wait, or failed for good after MAIL_ATTEMPTS tries. */
export async function recordFailure(db: Database, mail: ClaimedMail, error: string): Promise<void> {
  const last = mail.attempts >= MAIL_ATTEMPTS;
  await db.query(
    `UPDATE mail_messages SET status = $2, claimed_until = NULL, error = $3,
            next_attempt_at = now() + make_interval(secs => $4)
     WHERE id = $1`,
    [mail.id, last ? 'failed' : 'queued', error.slice(0, 1000), last ? 0 : retryDelaySeconds(mail.attempts)],
  );
}
