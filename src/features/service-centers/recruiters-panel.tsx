// The Recruiters panel of a service center (spec §2): the recruiters, adding one with a name and
// contact information, and deleting one made by mistake (refused while files or students name it).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  getListRecruitersQueryKey,
  useCreateRecruiter,
  useDeleteRecruiter,
  useListRecruiters,
} from '../../../generated/hooks/service-centers/service-centers';
import { useNotifications } from '../../components/notifications/notifications-context';
import { Panel } from '../../components/page-layout/panel';
import { DeleteAction } from '../../components/ui/delete-action';
import { saveErrorText } from './save-error';

export const RECRUITERS_EMPTY = 'No recruiters yet.';
export const RECRUITER_SAVE_FAILED = 'The recruiter could not be added. Please try again.';

export function RecruitersPanel({ serviceCenterId }: { serviceCenterId: string }) {
  const nameId = useId();
  const contactId = useId();
  const recruiters = useListRecruiters(serviceCenterId);
  const [name, setName] = useState('');
  const [contactInfo, setContactInfo] = useState('');
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const create = useCreateRecruiter();
  const remove = useDeleteRecruiter();
  const canAdd = name.trim() !== '' && !create.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canAdd) return;
    create.mutate(
      { serviceCenterId, data: { name: name.trim(), contact_info: contactInfo.trim() } },
      {
        onSuccess: (recruiter) => {
          void queryClient.invalidateQueries({ queryKey: getListRecruitersQueryKey(serviceCenterId) });
          notify(`Recruiter ${recruiter.name} added.`, { severity: 'success' });
          setName('');
          setContactInfo('');
        },
      },
    );
  };

  return (
    <Panel title="Recruiters">
      {recruiters.isError && <p className="panel-message" role="alert">Could not load the recruiters.</p>}
      {recruiters.data && recruiters.data.length === 0 && <p className="panel-message">{RECRUITERS_EMPTY}</p>}
      {recruiters.data && recruiters.data.length > 0 && (
        <ul className="item-list" aria-label="Recruiters">
          {recruiters.data.map((recruiter) => (
            <li key={recruiter.id}>
              <span className="item-main">
                <span>{recruiter.name}</span>
                {recruiter.contact_info && <span className="item-secondary">{recruiter.contact_info}</span>}
              </span>
              <span className="item-actions">
                <DeleteAction
                  what="recruiter"
                  name={recruiter.name}
                  run={() => remove.mutateAsync({ serviceCenterId, recruiterId: recruiter.id })}
                  onDone={() => void queryClient.invalidateQueries({ queryKey: getListRecruitersQueryKey(serviceCenterId) })}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form panel-add-form" onSubmit={submit} noValidate aria-label="Add a recruiter">
        <div className="form-field">
          <label htmlFor={nameId}>Name</label>
          <InputText id={nameId} value={name} onChange={(event) => setName(event.target.value)} />
        </div>
        <div className="form-field">
          <label htmlFor={contactId}>Contact Info</label>
          <InputText id={contactId} value={contactInfo} onChange={(event) => setContactInfo(event.target.value)} />
        </div>
        <Button type="submit" label="Add" icon="pi pi-plus" loading={create.isPending} disabled={!canAdd} />
        {create.isError && <Message severity="error" text={saveErrorText(create.error, RECRUITER_SAVE_FAILED)} />}
      </form>
    </Panel>
  );
}
