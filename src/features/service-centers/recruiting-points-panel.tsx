// The Recruiting Points panel of a service center (spec §2, §5): add one with name and location,
// rename one in place, and delete one after "Are you sure you want to delete this location? This
// action cannot be undone." (refused, with a banner saying why, while files or students name it).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  getListRecruitingPointsQueryKey,
  useCreateRecruitingPoint,
  useDeleteRecruitingPoint,
  useListRecruitingPoints,
  useUpdateRecruitingPoint,
} from '../../../generated/hooks/service-centers/service-centers';
import type { RecruitingPoint } from '../../../generated/hooks/model';
import { useNotifications } from '../../components/notifications/notifications-context';
import { Panel } from '../../components/page-layout/panel';
import { refusalMessage } from '../../lib/refusal';
import { saveErrorText } from './save-error';

export const DELETE_LOCATION_QUESTION = 'Are you sure you want to delete this location? This action cannot be undone.';
export const RECRUITING_POINTS_EMPTY = 'No recruiting points yet.';
export const RECRUITING_POINT_SAVE_FAILED = 'The recruiting point could not be saved. Please try again.';

function RenameForm({
  point,
  serviceCenterId,
  onDone,
}: {
  point: RecruitingPoint;
  serviceCenterId: string;
  onDone: () => void;
}) {
  const inputId = useId();
  const [name, setName] = useState(point.name);
  const queryClient = useQueryClient();
  const update = useUpdateRecruitingPoint();
  const changed = name.trim() !== '' && name.trim() !== point.name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    update.mutate(
      { id: serviceCenterId, recruitingPoint: point.id, data: { name: name.trim() } },
      {
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: getListRecruitingPointsQueryKey(serviceCenterId) });
          onDone();
        },
      },
    );
  };

  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <div className="form-field">
        <label htmlFor={inputId}>Name of {point.name}</label>
        <InputText
          id={inputId}
          value={name}
          autoFocus
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onDone();
          }}
        />
      </div>
      <Button type="submit" label="Save" size="small" loading={update.isPending} disabled={!changed || update.isPending} />
      <Button type="button" label="Cancel" size="small" outlined onClick={onDone} />
      {update.isError && <Message severity="error" text={saveErrorText(update.error, RECRUITING_POINT_SAVE_FAILED)} />}
    </form>
  );
}

function AddRecruitingPointForm({ serviceCenterId }: { serviceCenterId: string }) {
  const nameId = useId();
  const locationId = useId();
  const [name, setName] = useState('');
  const [location, setLocation] = useState('');
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const create = useCreateRecruitingPoint();
  const canAdd = name.trim() !== '' && !create.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canAdd) return;
    create.mutate(
      { id: serviceCenterId, data: { name: name.trim(), location: location.trim() } },
      {
        onSuccess: (point) => {
          void queryClient.invalidateQueries({ queryKey: getListRecruitingPointsQueryKey(serviceCenterId) });
          notify(`Recruiting point ${point.name} added.`, { severity: 'success' });
          setName('');
          setLocation('');
        },
      },
    );
  };

  return (
    <form className="inline-form panel-add-form" onSubmit={submit} noValidate aria-label="Add a recruiting point">
      <div className="form-field">
        <label htmlFor={nameId}>Name</label>
        <InputText id={nameId} value={name} onChange={(event) => setName(event.target.value)} />
      </div>
      <div className="form-field">
        <label htmlFor={locationId}>Location</label>
        <InputText id={locationId} value={location} onChange={(event) => setLocation(event.target.value)} />
      </div>
      <Button type="submit" label="Add" icon="pi pi-plus" loading={create.isPending} disabled={!canAdd} />
      {create.isError && <Message severity="error" text={saveErrorText(create.error, RECRUITING_POINT_SAVE_FAILED)} />}
    </form>
  );
}

export function RecruitingPointsPanel({ serviceCenterId }: { serviceCenterId: string }) {
  const points = useListRecruitingPoints(serviceCenterId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<RecruitingPoint | null>(null);
  const queryClient = useQueryClient();
  const remove = useDeleteRecruitingPoint();

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(
      { id: serviceCenterId, recruitingPoint: deleting.id },
      { onSuccess: () => void queryClient.invalidateQueries({ queryKey: getListRecruitingPointsQueryKey(serviceCenterId) }) },
    );
  };

  return (
    <Panel title="Recruiting Points">
      {points.isError && <p className="panel-message" role="alert">Could not load the recruiting points.</p>}
      {points.data && points.data.length === 0 && <p className="panel-message">{RECRUITING_POINTS_EMPTY}</p>}
      {points.data && points.data.length > 0 && (
        <ul className="item-list" aria-label="Recruiting points">
          {points.data.map((point) => (
            <li key={point.id}>
              {renaming === point.id ? (
                <RenameForm point={point} serviceCenterId={serviceCenterId} onDone={() => setRenaming(null)} />
              ) : (
                <>
                  <span className="item-main">
                    <span>{point.name}</span>
                    {point.location && <span className="item-secondary">{point.location}</span>}
                  </span>
                  <span className="item-actions">
                    <Button
                      type="button"
                      icon="pi pi-pencil"
                      text
                      rounded
                      aria-label={`Edit name of ${point.name}`}
                      onClick={() => setRenaming(point.id)}
                    />
                    <Button
                      type="button"
                      icon="pi pi-trash"
                      text
                      rounded
                      severity="danger"
                      aria-label={`Delete ${point.name}`}
                      onClick={() => setDeleting(point)}
                    />
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {/* A refusal says what still names the recruiting point (409). */}
      {remove.isError && <Message severity="error" text={refusalMessage(remove.error, 'The recruiting point could not be deleted. Please try again.')} />}
      <AddRecruitingPointForm serviceCenterId={serviceCenterId} />
      <ConfirmDialog
        visible={deleting !== null}
        onHide={() => setDeleting(null)}
        header="Delete Location"
        message={DELETE_LOCATION_QUESTION}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Delete"
        rejectLabel="Cancel"
        accept={confirmDelete}
      />
    </Panel>
  );
}
