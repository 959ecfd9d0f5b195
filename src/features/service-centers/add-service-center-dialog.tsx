// "Add a Service Center" (spec §2): name, country and location, POST /api/service_centers; a
// created center opens its detail page (the list refreshes behind it).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { useNavigate } from 'react-router-dom';
import {
  getListServiceCentersQueryKey,
  useCreateServiceCenter,
} from '../../../generated/hooks/service-centers/service-centers';
import { CountryPicker } from '../../components/pickers/country-picker';
import { paths } from '../../config/paths';

export const ADD_SERVICE_CENTER_TITLE = 'Add a Service Center';
export const ADD_SERVICE_CENTER_FAILED = 'The service center could not be added. Please try again.';

export interface AddServiceCenterDialogProps {
  visible: boolean;
  onHide: () => void;
}

export function AddServiceCenterDialog({ visible, onHide }: AddServiceCenterDialogProps) {
  const nameId = useId();
  const locationId = useId();
  const [name, setName] = useState('');
  const [country, setCountry] = useState<string | undefined>(undefined);
  const [location, setLocation] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useCreateServiceCenter();

  const canSave = name.trim() !== '' && country !== undefined && location.trim() !== '' && !create.isPending;

  const close = () => {
    setName('');
    setCountry(undefined);
    setLocation('');
    create.reset();
    onHide();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSave || country === undefined) return;
    create.mutate(
      { data: { name: name.trim(), country, location: location.trim() } },
      {
        onSuccess: (created) => {
          void queryClient.invalidateQueries({ queryKey: getListServiceCentersQueryKey() });
          close();
          navigate(paths.serviceCenter(created.id));
        },
      },
    );
  };

  return (
    <Dialog header={ADD_SERVICE_CENTER_TITLE} visible={visible} onHide={close} modal className="form-dialog">
      <form onSubmit={submit} className="form-grid" noValidate>
        <div className="form-field">
          <label htmlFor={nameId}>Name</label>
          <InputText id={nameId} value={name} autoFocus onChange={(event) => setName(event.target.value)} />
        </div>
        <CountryPicker placeholder="Choose a country" value={country} onChange={setCountry} />
        <div className="form-field">
          <label htmlFor={locationId}>Location</label>
          <InputText id={locationId} value={location} onChange={(event) => setLocation(event.target.value)} />
        </div>
        {create.isError && <Message severity="error" text={ADD_SERVICE_CENTER_FAILED} />}
        <div className="form-actions">
          <Button type="button" label="Cancel" outlined onClick={close} />
          <Button type="submit" label="Save" loading={create.isPending} disabled={!canSave} />
        </div>
      </form>
    </Dialog>
  );
}
