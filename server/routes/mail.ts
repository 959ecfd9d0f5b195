// The mail record for admins (what went out, what failed, what was kept unsent for want of a
// mail server; server/workflow/mail-outbox.ts) and each user's own e-mail settings.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import { mailMessagePage, type MailMessageRow } from '../repositories/mail-messages';
import { setUserGetsUploadReports, userGetsUploadReports } from '../repositories/users';
import { pageOf, paged } from './shared/paging';

function mailMessageOf(row: MailMessageRow): Schemas['MailMessage'] {
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    // A message being sent right now is still waiting, as far as a reader can tell.
    status: row.status === 'sending' ? 'queued' : row.status,
    attempts: Number(row.attempts),
    created_at: new Date(row.created_at).toISOString(),
    sent_at: row.sent_at === null ? null : new Date(row.sent_at).toISOString(),
    error: row.error,
  };
}

/** The statuses a filter reads: 'queued' includes the messages being sent. */
function statusesOf(status: Schemas['MailStatus'] | undefined): Schemas['MailStatus'][] | ['queued', 'sending'] | undefined {
  if (status === undefined) return undefined;
  return status === 'queued' ? ['queued', 'sending'] : [status];
}

export async function mailRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listMailMessages'>>('/api/mail/messages', async (request): Promise<ReplyOf<'listMailMessages'>> => {
    const page = pageOf(request.query);
    const { rows, total } = await mailMessagePage(db, statusesOf(request.query.status), page);
    return paged(rows.map(mailMessageOf), total, page);
  });

  const settingsOf = async (userId: string): Promise<Schemas['MailSettings']> => ({ upload_reports: await userGetsUploadReports(db, userId) });

  app.get<Route<'getMailSettings'>>('/api/mail/settings', async (request): Promise<ReplyOf<'getMailSettings'>> => settingsOf(requireUser(request).id));

  app.patch<Route<'updateMailSettings'>>('/api/mail/settings', async (request): Promise<ReplyOf<'updateMailSettings'>> => {
    const user = requireUser(request);
    await setUserGetsUploadReports(db, user.id, request.body.upload_reports);
    return settingsOf(user.id);
  });
}
