// The mail tag (spec §7 "Mail"): the admin's record of the mail sent, and the user's e-mail settings.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import { getGetMailSettingsMockHandler, getListMailMessagesMockHandler, getUpdateMailSettingsMockHandler } from '../../../../../generated/hooks/mail/mail.msw';
import { answer, forbidden, paged, type WorldAccess } from '../http';

type S = components['schemas'];

export function mailResponders({ world, viewer }: WorldAccess): HttpHandler[] {
  return [
    answer(getListMailMessagesMockHandler, ({ request }) => (viewer() !== null ? forbidden() : paged(new URL(request.url), world().mail))),
    answer(getGetMailSettingsMockHandler, () => world().mailSettings),
    answer(getUpdateMailSettingsMockHandler, async ({ request }) => {
      world().mailSettings = { upload_reports: ((await request.json()) as S['MailSettingsUpdate']).upload_reports };
      return world().mailSettings;
    }),
  ];
}
