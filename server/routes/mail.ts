// The mail record for admins (what went out, what failed, what was kept unsent for want of a
// mail server; server/workflow/mail-outbox.ts) and each user's own e-mail settings.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import { pageOf, paged } from './shared/paging';
import { Where } from '../repositories/sql/where';

interface MailRow {
  id: string;
  to_address: string;
  subject: string;
  status: string;
  attempts: number;
  created_at: Date;
  sent_at: Date | null;
  error: string | null;
}

function mailMessageOf(row: MailRow): Schemas['MailMessage'] {
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    // A message being sent right now is still waiting, as far as a reader can tell.
    status: (row.status === 'sending' ? 'queued' : row.status) as Schemas['MailStatus'],
    attempts: Number(row.attempts),
    created_at: new Date(row.created_at).toISOString(),
    sent_at: row.sent_at === null ? null : new Date(row.sent_at).toISOString(),
    error: row.error,
  };
}

export async function mailRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listMailMessages'>>('/api/mail/messages', async (request): Promise<ReplyOf<'listMailMessages'>> => {
    const page = pageOf(request.query);
    const status = request.query.status;
    const where = new Where().addIf(status === undefined ? undefined : status === 'queued' ? ['queued', 'sending'] : [status], (p) => `status = ANY(${p}::text[])`);
    const { total } = await db.one<{ total: number }>(`SELECT count(*)::int AS total FROM mail_messages ${where.sql}`, where.params);
    const rows = await db.query<MailRow>(
      `SELECT id, to_address, subject, status, attempts, created_at, sent_at, error FROM mail_messages ${where.sql}
       ORDER BY created_at DESC, id LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(rows.map(mailMessageOf), total, page);
  });

  const settingsOf = async (userId: string): Promise<Schemas['MailSettings']> => {
    const row = await db.one<{ email_upload_reports: boolean }>('SELECT email_upload_reports FROM users WHERE id = $1', [userId]);
    return { upload_reports: row.email_upload_reports };
  };

  app.get<Route<'getMailSettings'>>('/api/mail/settings', async (request): Promise<ReplyOf<'getMailSettings'>> => settingsOf(requireUser(request).id));

  app.patch<Route<'updateMailSettings'>>('/api/mail/settings', async (request): Promise<ReplyOf<'updateMailSettings'>> => {
    const user = requireUser(request);
    await db.query('UPDATE users SET email_upload_reports = $2 WHERE id = $1', [user.id, request.body.upload_reports]);
    return settingsOf(user.id);
  });
}
