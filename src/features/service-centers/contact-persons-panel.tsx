// The Contact Persons panel of a service center (spec §2): the contact persons, adding one by name
// (POST /api/service-centers/{id}/contact-person), and deleting one made by mistake (refused
// while files name it).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  getListContactPersonsQueryKey,
  useCreateContactPerson,
  useDeleteContactPerson,
  useListContactPersons,
} from '../../../generated/hooks/service-centers/service-centers';
import { useNotifications } from '../../components/notifications/notifications-context';
import { Panel } from '../../components/page-layout/panel';
import { DeleteAction } from '../../components/ui/delete-action';
import { saveErrorText } from './save-error';

export const CONTACT_PERSONS_EMPTY = 'No contact persons yet.';
export const CONTACT_PERSON_SAVE_FAILED = 'The contact person could not be added. Please try again.';

export function ContactPersonsPanel({ serviceCenterId }: { serviceCenterId: string }) {
  const nameId = useId();
  const people = useListContactPersons(serviceCenterId);
  const remove = useDeleteContactPerson();
  const [name, setName] = useState('');
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const create = useCreateContactPerson();
  const canAdd = name.trim() !== '' && !create.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canAdd) return;
    create.mutate(
      { serviceCenterId, data: { name: name.trim() } },
      {
        onSuccess: (person) => {
          void queryClient.invalidateQueries({ queryKey: getListContactPersonsQueryKey(serviceCenterId) });
          notify(`Contact person ${person.name} added.`, { severity: 'success' });
          setName('');
        },
      },
    );
  };

  return (
    <Panel title="Contact Persons">
      {people.isError && <p className="panel-message" role="alert">Could not load the contact persons.</p>}
      {people.data && people.data.length === 0 && <p className="panel-message">{CONTACT_PERSONS_EMPTY}</p>}
      {people.data && people.data.length > 0 && (
        <ul className="item-list" aria-label="Contact persons">
          {people.data.map((person) => (
            <li key={person.id}>
              <span className="item-main">{person.name}</span>
              <span className="item-actions">
                <DeleteAction
                  what="contact person"
                  name={person.name}
                  run={() => remove.mutateAsync({ serviceCenterId, contactPersonId: person.id })}
                  onDone={() => void queryClient.invalidateQueries({ queryKey: getListContactPersonsQueryKey(serviceCenterId) })}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form panel-add-form" onSubmit={submit} noValidate aria-label="Add a contact person">
        <div className="form-field">
          <label htmlFor={nameId}>Name</label>
          <InputText id={nameId} value={name} onChange={(event) => setName(event.target.value)} />
        </div>
        <Button type="submit" label="Add" icon="pi pi-plus" loading={create.isPending} disabled={!canAdd} />
        {create.isError && <Message severity="error" text={saveErrorText(create.error, CONTACT_PERSON_SAVE_FAILED)} />}
      </form>
    </Panel>
  );
}
