// "Add A New Study Helper" (spec §2): a Name field; POST /api/congregations/{id}/study-helpers with
// the fixed placeholder e-mail the client sends (spec §7).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  getListCongregationStudyHelpersQueryKey,
  useCreateCongregationStudyHelper,
} from '../../../generated/hooks/congregations/congregations';
import { getListStudyHelpersQueryKey } from '../../../generated/hooks/study-helpers/study-helpers';
import { useNotifications } from '../../components/notifications/notifications-context';

export const ADD_STUDY_HELPER_TITLE = 'Add A New Study Helper';

/** Study helpers are added by name only; the contract needs an e-mail, so this fixed one is sent. */
export const STUDY_HELPER_PLACEHOLDER_EMAIL = 'no-email@placeholder.invalid';

export interface AddStudyHelperDialogProps {
  congregationId: string;
  visible: boolean;
  onHide: () => void;
}

export function AddStudyHelperDialog({ congregationId, visible, onHide }: AddStudyHelperDialogProps) {
  const nameId = useId();
  const [name, setName] = useState('');
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const create = useCreateCongregationStudyHelper();
  const canSave = name.trim() !== '' && !create.isPending;

  const close = () => {
    setName('');
    create.reset();
    onHide();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSave) return;
    create.mutate(
      { id: congregationId, data: { name: name.trim(), email: STUDY_HELPER_PLACEHOLDER_EMAIL } },
      {
        onSuccess: (helper) => {
          void queryClient.invalidateQueries({ queryKey: getListStudyHelpersQueryKey() });
          void queryClient.invalidateQueries({ queryKey: getListCongregationStudyHelpersQueryKey(congregationId) });
          notify(`Study helper ${helper.name} added.`, { severity: 'success' });
          close();
        },
      },
    );
  };

  return (
    <Dialog header={ADD_STUDY_HELPER_TITLE} visible={visible} onHide={close} modal className="form-dialog">
      <form onSubmit={submit} className="form-grid" noValidate>
        <div className="form-field">
          <label htmlFor={nameId}>Name</label>
          <InputText id={nameId} value={name} autoFocus onChange={(event) => setName(event.target.value)} />
        </div>
        {create.isError && <Message severity="error" text="The study helper could not be added. Please try again." />}
        <div className="form-actions">
          <Button type="button" label="Cancel" outlined onClick={close} />
          <Button type="submit" label="Save" loading={create.isPending} disabled={!canSave} />
        </div>
      </form>
    </Dialog>
  );
}
