// Who sent the file (spec §2, §5): a service center picker, then recruiting point, recruiter and
// service center contact pickers, disabled until a service center is chosen. Each choice is
// saved at once with PATCH /api/file/{id}; changing the service center clears the three others.
import { useId } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Dropdown } from 'primereact/dropdown';
import { getGetFileQueryKey, useUpdateFile } from '../../../generated/hooks/files/files';
import type { File, FilePatch } from '../../../generated/hooks/model';
import {
  useListContactPersons,
  useListRecruiters,
  useListRecruitingPoints,
  useListServiceCenters,
} from '../../../generated/hooks/service-centers/service-centers';
import { invalidateFile } from '../../lib/queries';

/** Every service center fits in one request. */
const ALL_SERVICE_CENTERS = { limit: 500 } as const;

interface Option {
  value: string;
  label: string;
}

function Picker(props: {
  label: string;
  value: string | null | undefined;
  options: Option[];
  disabled: boolean;
  loading?: boolean;
  onChange: (value: string | null) => void;
}) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>{props.label}</label>
      <Dropdown
        inputId={id}
        value={props.value ?? null}
        options={props.options}
        optionValue="value"
        optionLabel="label"
        filter
        showClear
        placeholder={props.disabled ? 'Choose a service center first' : `Choose a ${props.label.toLowerCase()}`}
        disabled={props.disabled}
        loading={props.loading}
        onChange={(event) => props.onChange((event.value as string | null) ?? null)}
      />
    </div>
  );
}

const named = (items: readonly { id: string; name: string }[] | undefined): Option[] =>
  (items ?? []).map((item) => ({ value: item.id, label: item.name }));

/** With the current choice kept even when the list has not loaded it. */
function withCurrent(options: Option[], current: { id: string; name: string } | null | undefined): Option[] {
  if (!current || options.some((option) => option.value === current.id)) return options;
  return [{ value: current.id, label: current.name }, ...options];
}

export function FileOrganisationForm({ file }: { file: File }) {
  const queryClient = useQueryClient();
  const serviceCenterId = file.service_center?.id;
  const chosen = Boolean(serviceCenterId);
  const serviceCenters = useListServiceCenters(ALL_SERVICE_CENTERS);
  const recruitingPoints = useListRecruitingPoints(serviceCenterId ?? '', { query: { enabled: chosen } });
  const recruiters = useListRecruiters(serviceCenterId ?? '', { query: { enabled: chosen } });
  const contacts = useListContactPersons(serviceCenterId ?? '', { query: { enabled: chosen } });
  const update = useUpdateFile();

  const save = (data: FilePatch) =>
    update.mutate(
      { fileId: file.id, data },
      {
        onSuccess: (updated) => {
          queryClient.setQueryData(getGetFileQueryKey(file.id), updated);
          void invalidateFile(queryClient, file.id);
        },
        onError: (error) => console.error('file save failed:', error),
      },
    );

  return (
    <div className="file-organisation form-grid">
      <Picker
        label="Service Center"
        value={serviceCenterId}
        options={withCurrent(named(serviceCenters.data?.items), file.service_center)}
        disabled={false}
        loading={serviceCenters.isLoading}
        onChange={(value) =>
          save({ service_center: value, recruiting_point: null, recruiter: null, contact_person: null })
        }
      />
      <Picker
        label="Recruiting Point"
        value={file.recruiting_point?.id}
        options={withCurrent(named(recruitingPoints.data), file.recruiting_point)}
        disabled={!chosen}
        onChange={(value) => save({ recruiting_point: value })}
      />
      <Picker
        label="Recruiter"
        value={file.recruiter?.id}
        options={withCurrent(named(recruiters.data), file.recruiter)}
        disabled={!chosen}
        onChange={(value) => save({ recruiter: value })}
      />
      <Picker
        label="Contact Person"
        value={file.service_center_contact_person?.id}
        options={withCurrent(named(contacts.data), file.service_center_contact_person)}
        disabled={!chosen}
        onChange={(value) => save({ contact_person: value })}
      />
    </div>
  );
}
