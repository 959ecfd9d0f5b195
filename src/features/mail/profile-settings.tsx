// /profile (the account menu's "Profile"): the signed-in user's e-mail settings, and for a
// congregation's coordinator a way to the addresses its congregation is told at.
import { useId } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Checkbox } from 'primereact/checkbox';
import { Message } from 'primereact/message';
import { Link } from 'react-router-dom';
import { getGetMailSettingsQueryKey, useGetMailSettings, useUpdateMailSettings } from '../../../generated/hooks/mail/mail';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { useCurrentUser } from '../../lib/auth';

export const UPLOAD_REPORTS_LABEL = 'E-mail me the report of each upload I make when its reading ends';
export const CONGREGATION_EMAILS_LINK = "My congregation's e-mail addresses";

export default function ProfileSettings() {
  const user = useCurrentUser();
  const checkboxId = useId();
  const settings = useGetMailSettings();
  const update = useUpdateMailSettings();
  const queryClient = useQueryClient();
  const checked = update.isPending ? !!update.variables?.data.upload_reports : (settings.data?.upload_reports ?? false);
  return (
    <>
      <PageHeader title={routes.profile.title} subtitle={user.email} />
      <section className="form-grid" aria-label="E-mail">
        <h2>E-mail</h2>
        <div className="form-field form-field-inline">
          <Checkbox
            inputId={checkboxId}
            checked={checked}
            disabled={settings.data === undefined || update.isPending}
            onChange={(event) =>
              update.mutate(
                { data: { upload_reports: !!event.checked } },
                { onSuccess: (next) => queryClient.setQueryData(getGetMailSettingsQueryKey(), next) },
              )
            }
          />
          <label htmlFor={checkboxId}>{UPLOAD_REPORTS_LABEL}</label>
        </div>
        {(settings.isError || update.isError) && <Message severity="error" text="The e-mail settings could not be saved. Please try again." />}
        {/* Only a coordinator keeps its congregation's addresses (the server refuses a member). */}
        {user.role === 'study_helper_coordinator' && user.congregation !== '' && (
          <p>
            <Link to={paths.congregationEmails(user.congregation)}>{CONGREGATION_EMAILS_LINK}</Link>: they hear when a packet is ready to print.
          </p>
        )}
      </section>
    </>
  );
}
