// "Add E-mail" on a congregation's Emails screen: one address, checked as it is typed (the server
// checks it again and refuses one the congregation has already).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { getListCongregationEmailsQueryKey, useCreateCongregationEmail } from '../../../generated/hooks/congregations/congregations';
import { ApiError } from '../../lib/api-client';
import { useNotifications } from '../../components/notifications/notifications-context';

export const ADD_EMAIL_TITLE = 'Add E-mail';
export const EMAIL_INVALID = 'Enter one e-mail address, like name@example.org.';

/** One address: something@domain.tld, no spaces, no second @ (the server's rule). */
export function isEmailAddress(text: string): boolean {
  return /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/.test(text.trim());
}

function failureText(error: unknown): string {
  const message = error instanceof ApiError && error.status === 400 ? (error.body as { detail?: { message?: unknown } } | null)?.detail?.message : undefined;
  return typeof message === 'string' && message !== '' ? message : 'The e-mail could not be added. Please try again.';
}

export function AddEmailDialog({ groupId, visible, onHide }: { groupId: string; visible: boolean; onHide: () => void }) {
  const emailId = useId();
  const errorId = useId();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const create = useCreateCongregationEmail();
  const valid = isEmailAddress(email);
  const showError = touched && !valid;

  const close = () => {
    setEmail('');
    setTouched(false);
    create.reset();
    onHide();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!valid || create.isPending) return;
    create.mutate(
      { id: groupId, data: { email: email.trim() } },
      {
        onSuccess: (added) => {
          void queryClient.invalidateQueries({ queryKey: getListCongregationEmailsQueryKey(groupId) });
          notify(`E-mail ${added.email} added.`, { severity: 'success' });
          close();
        },
      },
    );
  };

  return (
    <Dialog header={ADD_EMAIL_TITLE} visible={visible} onHide={close} modal className="form-dialog">
      <form onSubmit={submit} className="form-grid" noValidate>
        <div className="form-field">
          <label htmlFor={emailId}>E-mail</label>
          <InputText
            id={emailId}
            type="email"
            value={email}
            invalid={showError}
            aria-invalid={showError || undefined}
            aria-describedby={showError ? errorId : undefined}
            placeholder="name@example.org"
            autoFocus
            onChange={(event) => setEmail(event.target.value)}
            onBlur={() => setTouched(email !== '')}
          />
          {showError && (
            <small id={errorId} className="p-error">
              {EMAIL_INVALID}
            </small>
          )}
        </div>
        {create.isError && <Message severity="error" text={failureText(create.error)} />}
        <div className="form-actions">
          <Button type="button" label="Cancel" outlined onClick={close} />
          <Button type="submit" label="Save" loading={create.isPending} disabled={create.isPending} />
        </div>
      </form>
    </Dialog>
  );
}
