// "Add Baptism Request" (spec §2, §5, §8): a Student ID, checked here (required, a positive whole
// number), then POST /api/baptism-request; a refusal shows the spec's text for it in the dialog.
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  getListBaptismRequestsQueryKey,
  useCreateBaptismRequest,
} from '../../../generated/hooks/baptism/baptism';
import type { BaptismRequest } from '../../../generated/hooks/model';
import {
  ADD_BAPTISM_REQUEST_TITLE,
  baptismRequestErrorMessage,
  checkStudentId,
} from './baptism-request-messages';

export interface AddBaptismRequestDialogProps {
  visible: boolean;
  onHide: () => void;
  onCreated: (request: BaptismRequest) => void;
}

export function AddBaptismRequestDialog({ visible, onHide, onCreated }: AddBaptismRequestDialogProps) {
  const inputId = useId();
  const messageId = useId();
  const [text, setText] = useState('');
  // The rule message shows once the user tried to submit, and follows the typing from then on.
  const [submitted, setSubmitted] = useState(false);
  const queryClient = useQueryClient();
  const create = useCreateBaptismRequest();

  const check = checkStudentId(text);
  const message = submitted && !check.ok ? check.message : create.isError ? baptismRequestErrorMessage(create.error) : null;

  const close = () => {
    setText('');
    setSubmitted(false);
    create.reset();
    onHide();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    create.reset();
    if (!check.ok) return;
    create.mutate(
      { data: { student_id: check.studentId } },
      {
        onSuccess: (request) => {
          void queryClient.invalidateQueries({ queryKey: getListBaptismRequestsQueryKey() });
          close();
          onCreated(request);
        },
      },
    );
  };

  return (
    <Dialog header={ADD_BAPTISM_REQUEST_TITLE} visible={visible} onHide={close} modal className="form-dialog">
      <form onSubmit={submit} className="form-grid" noValidate>
        <div className="form-field">
          <label htmlFor={inputId}>Student ID</label>
          <InputText
            id={inputId}
            value={text}
            inputMode="numeric"
            autoComplete="off"
            autoFocus
            invalid={message !== null}
            aria-invalid={message !== null || undefined}
            aria-describedby={message !== null ? messageId : undefined}
            onChange={(event) => {
              setText(event.target.value);
              if (create.isError) create.reset();
            }}
          />
        </div>
        {message !== null && (
          <Message id={messageId} severity="error" text={message} role="alert" />
        )}
        <div className="form-actions">
          <Button type="button" label="Cancel" outlined onClick={close} />
          <Button type="submit" label="Submit" loading={create.isPending} disabled={create.isPending} />
        </div>
      </form>
    </Dialog>
  );
}
