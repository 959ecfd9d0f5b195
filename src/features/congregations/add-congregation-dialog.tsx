// "Add A New Congregation" (spec §2): WBS code and display name, POST /api/congregations. The WBS
// field shows an error state, with no message text, while the code breaks the rule of spec §5.
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  getListCongregationsQueryKey,
  useCreateCongregation,
} from '../../../generated/hooks/congregations/congregations';
import { ApiError } from '../../lib/api-client';
import { useNotifications } from '../../components/notifications/notifications-context';
import { isValidWbsCode } from './wbs-code';

export const ADD_CONGREGATION_TITLE = 'Add A New Congregation';

export interface AddCongregationDialogProps {
  visible: boolean;
  onHide: () => void;
}

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) return 'A congregation with this WBS code already exists.';
  return 'The congregation could not be added. Please try again.';
}

export function AddCongregationDialog({ visible, onHide }: AddCongregationDialogProps) {
  const wbsId = useId();
  const nameId = useId();
  const [wbsCode, setWbsCode] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [touched, setTouched] = useState(false);
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const create = useCreateCongregation();

  const wbsValid = isValidWbsCode(wbsCode);
  const canSave = wbsValid && displayName.trim() !== '' && !create.isPending;

  const close = () => {
    setWbsCode('');
    setDisplayName('');
    setTouched(false);
    create.reset();
    onHide();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!canSave) return;
    create.mutate(
      { data: { wbs_code: wbsCode, display_name: displayName.trim() } },
      {
        onSuccess: (congregation) => {
          void queryClient.invalidateQueries({ queryKey: getListCongregationsQueryKey() });
          notify(`Congregation ${congregation.wbs_code} added.`, { severity: 'success' });
          close();
        },
      },
    );
  };

  const showWbsError = (touched || wbsCode !== '') && !wbsValid;

  return (
    <Dialog header={ADD_CONGREGATION_TITLE} visible={visible} onHide={close} modal className="form-dialog">
      <form onSubmit={submit} className="form-grid" noValidate>
        <div className="form-field">
          <label htmlFor={wbsId}>WBS Code</label>
          <InputText
            id={wbsId}
            value={wbsCode}
            invalid={showWbsError}
            aria-invalid={showWbsError || undefined}
            placeholder="US 1234"
            autoFocus
            onChange={(event) => setWbsCode(event.target.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor={nameId}>Display Name</label>
          <InputText id={nameId} value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </div>
        {create.isError && <Message severity="error" text={failureText(create.error)} />}
        <div className="form-actions">
          <Button type="button" label="Cancel" outlined onClick={close} />
          <Button type="submit" label="Save" loading={create.isPending} disabled={!canSave} />
        </div>
      </form>
    </Dialog>
  );
}
