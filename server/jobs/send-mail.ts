// Job `send_mail`: sends the messages due in the mail record (server/workflow/mail-outbox.ts)
// one by one through the mail server of SMTP_URL (nodemailer), recording each try. A failed try
// waits longer each time (the record's own backoff, so pg-boss does not retry the job). Without
// SMTP_URL every message is recorded as not sent and nothing fails. The recovery sweep queues the
// job whenever a message is due, and queues the weekly reminders of packets that wait.
import nodemailer, { type Transporter } from 'nodemailer';
import { hasDueMail, recordSent } from '../repositories/mail-messages';
import { claimDueMail, recordFailure, recordNotSent } from '../workflow/mail-outbox';
import { remindWaitingPackets } from '../workflow/notifications';
import { SEND_MAIL_JOB, type JobContext, type JobDefinition } from './queue';

/** How often a worker looks for packets whose weekly reminder is due. */
export const REMINDER_CHECK_MS = 10 * 60_000;

const transporters = new Map<string, Transporter>();

function transporterFor(smtpUrl: string): Transporter {
  let transporter = transporters.get(smtpUrl);
  if (transporter === undefined) {
    transporter = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
    transporters.set(smtpUrl, transporter);
  }
  return transporter;
}

/** Sends every message due now; returns how many went to the mail server. */
export async function deliverDueMail(context: Pick<JobContext, 'db' | 'config' | 'logger' | 'signal'>): Promise<number> {
  const { db, config, logger, signal } = context;
  let sent = 0;
  while (!signal.aborted) {
    const mail = await claimDueMail(db);
    if (mail === null) break;
    if (config.smtpUrl === undefined) {
      await recordNotSent(db, mail.id);
      continue;
    }
    try {
      await transporterFor(config.smtpUrl).sendMail({
        from: config.mailFrom,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
      });
    } catch (error) {
      logger.warn({ err: error, mail: mail.id }, 'mail not sent; tried again later');
      await recordFailure(db, mail, error instanceof Error ? error.message : String(error));
      continue;
    }
    await recordSent(db, mail.id);
    sent++;
  }
  return sent;
}

/** When each worker (JobQueue) last looked; a worker looks at its start, then every REMINDER_CHECK_MS. */
const lastReminderCheck = new Map<string, number>();

/**
 * Queues due weekly reminders. Several workers may look at once: each reminder's key (packet, send,
 * week) lets only one of them queue it.
 */
async function queueReminders(context: Pick<JobContext, 'db' | 'config' | 'workerId'>): Promise<void> {
  const now = Date.now();
  if (now - (lastReminderCheck.get(context.workerId) ?? 0) < REMINDER_CHECK_MS) return;
  lastReminderCheck.set(context.workerId, now);
  await remindWaitingPackets(context.db, context.config.publicUrl);
}

export const sendMail: JobDefinition<Record<string, never>> = {
  name: SEND_MAIL_JOB,
  retryLimit: 0,
  expireInSeconds: 3600,
  handler: async (_data, context) => {
    await deliverDueMail(context);
  },
  async recover(context) {
    await queueReminders(context);
    return (await hasDueMail(context.db)) ? [{ data: {}, options: { singletonKey: SEND_MAIL_JOB } }] : [];
  },
};
