// The mail record: every message the portal sent, failed to send or kept unsent.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import type { Page } from './sql/paging';
import { Where } from './sql/where';

export interface MailMessageRow {
  id: string;
  to_address: string;
  subject: string;
  /** The contract's statuses and 'sending' (a message being sent right now). */
  status: Schemas['MailStatus'] | 'sending';
  attempts: number;
  created_at: Date;
  sent_at: Date | null;
  error: string | null;
}

/** A page of messages with one of `statuses` (all when undefined), newest first, with the total. */
export async function mailMessagePage(db: Database, statuses: readonly string[] | undefined, page: Page): Promise<{ rows: MailMessageRow[]; total: number }> {
  const where = new Where().addIf(statuses, (p) => `status = ANY(${p}::text[])`);
  const { total } = await db.one<{ total: number }>(`SELECT count(*)::int AS total FROM mail_messages ${where.sql}`, where.params);
  const rows = await db.query<MailMessageRow>(
    `SELECT id, to_address, subject, status, attempts, created_at, sent_at, error FROM mail_messages ${where.sql}
     ORDER BY created_at DESC, id LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total };
}

type MailStatus = Schemas['MailStatus'];

/** The due condition (see the header), shared by the check and the claim so they never differ. */
const DUE = `(status = 'queued' AND next_attempt_at <= now()) OR (status = 'sending' AND claimed_until < now())`;

export interface ClaimedMail {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

/** One row per address; the key makes a message with the same key and address queued only once, ever. */
export async function insertMailMessages(
  db: Database,
  key: string,
  addresses: readonly string[],
  message: { subject: string; text: string; html: string },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO mail_messages (message_key, to_address, subject, text_body, html_body)
     SELECT $1 || ':' || a.address, a.address, $3, $4, $5 FROM unnest($2::text[]) AS a(address)
     ON CONFLICT (message_key) DO NOTHING RETURNING id`,
    [key, addresses, message.subject, message.text, message.html],
  );
  return rows.length;
}

/** Whether a message waits to be sent now. */
export async function hasDueMail(db: Database): Promise<boolean> {
  // A database not migrated yet (POST /api/database/init is still to come) has no mail at all.
  const table = await db.one<{ present: boolean }>(`SELECT to_regclass('mail_messages') IS NOT NULL AS present`);
  if (!table.present) return false;
  return (await db.maybeOne(`SELECT 1 FROM mail_messages WHERE ${DUE} LIMIT 1`)) !== null;
}

/** Takes the oldest due message for `claimSeconds` (its try counted), or null when none is due. */
export async function claimDueMailFor(db: Database, claimSeconds: number): Promise<ClaimedMail | null> {
  return db.maybeOne<ClaimedMail>(
    `UPDATE mail_messages SET status = 'sending', attempts = attempts + 1,
            claimed_until = now() + make_interval(secs => $1)
     WHERE id = (SELECT id FROM mail_messages WHERE ${DUE} ORDER BY next_attempt_at, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, to_address, subject, text_body, html_body, attempts`,
    [claimSeconds],
  );
}

export async function recordSent(db: Database, id: string): Promise<void> {
  await db.query(`UPDATE mail_messages SET status = 'sent', sent_at = now(), claimed_until = NULL, error = NULL WHERE id = $1`, [id]);
}

/** Kept, never sent, with the reason. */
export async function markMailNotSent(db: Database, id: string, reason: string): Promise<void> {
  await db.query(`UPDATE mail_messages SET status = 'not_sent', claimed_until = NULL, error = $2 WHERE id = $1`, [id, reason]);
}

/** A failed try: queued again after `retrySeconds`, or failed for good. */
export async function recordMailFailure(db: Database, id: string, status: Extract<MailStatus, 'queued' | 'failed'>, error: string, retrySeconds: number): Promise<void> {
  await db.query(
    `UPDATE mail_messages SET status = $2, claimed_until = NULL, error = $3,
            next_attempt_at = now() + make_interval(secs => $4)
     WHERE id = $1`,
    [id, status, error, retrySeconds],
  );
}
