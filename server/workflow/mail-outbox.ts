// The mail record: every message the portal sends is first written here, in the transaction of
// the event it tells of (server/workflow/notifications.ts), then sent by the mail job
// (server/jobs/send-mail.ts). One row per message and address; its key makes telling twice add
// nothing. A failed try is recorded and tried again later, each wait longer than the last.
import type { Database } from '../db/database';
import { claimDueMailFor, insertMailMessages, markMailNotSent, recordMailFailure, type ClaimedMail } from '../repositories/mail-messages';

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
  return insertMailMessages(db, key, unique, message);
}

/** Takes the oldest due message for this worker (its try counted), or null when none is due. */
export async function claimDueMail(db: Database): Promise<ClaimedMail | null> {
  return claimDueMailFor(db, MAIL_CLAIM_SECONDS);
}

/** Kept, never sent: no mail server is set. */
export async function recordNotSent(db: Database, id: string): Promise<void> {
  await markMailNotSent(db, id, NO_MAIL_SERVER);
}

/** A failed try: tried again after a longer wait, or failed for good after MAIL_ATTEMPTS tries. */
export async function recordFailure(db: Database, mail: ClaimedMail, error: string): Promise<void> {
  const last = mail.attempts >= MAIL_ATTEMPTS;
  await recordMailFailure(db, mail.id, last ? 'failed' : 'queued', error.slice(0, 1000), last ? 0 : retryDelaySeconds(mail.attempts));
}
