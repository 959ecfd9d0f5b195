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
