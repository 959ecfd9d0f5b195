// The file's editable name (spec §5): Save is disabled while saving or when nothing changed;
// a failed save is only logged (spec §8); a saved indicator shows for 2 s (spec §9).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { getGetFileQueryKey, useUpdateFile } from '../../../generated/hooks/files/files';
import type { File } from '../../../generated/hooks/model';
import { FILE_NAME_MAX_LENGTH, SAVED_INDICATOR_MS } from '../../../machines/constants';
import { invalidateFile } from '../../lib/queries';

export const SAVED_TEXT = 'Saved';

export function FileNameForm({ file }: { file: File }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(file.name);
  const [shownFor, setShownFor] = useState(file.name);
  const [saved, setSaved] = useState(false);
  if (file.name !== shownFor) {
    // The name changed on the server (or was saved): show it.
    setShownFor(file.name);
    setName(file.name);
  }
  const update = useUpdateFile();
  useEffect(() => {
    if (!saved) return undefined;
    const timer = setTimeout(() => setSaved(false), SAVED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const trimmed = name.trim();
  const unchanged = trimmed === file.name || trimmed === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (unchanged || update.isPending) return;
    update.mutate(
      { fileId: file.id, data: { name: trimmed } },
      {
        onSuccess: (updated) => {
          queryClient.setQueryData(getGetFileQueryKey(file.id), updated);
          void invalidateFile(queryClient, file.id);
          setSaved(true);
        },
        onError: (error) => console.error('file name save failed:', error),
      },
    );
  };

  return (
    <form className="file-name-form" onSubmit={submit}>
      <label htmlFor={id}>File name</label>
      <div className="file-name-row">
        <InputText id={id} value={name} onChange={(event) => setName(event.target.value)} maxLength={FILE_NAME_MAX_LENGTH} />
        <Button type="submit" label="Save" loading={update.isPending} disabled={unchanged || update.isPending} />
        {saved && (
          <span className="file-saved" role="status">
            <span className="pi pi-check" aria-hidden="true" /> {SAVED_TEXT}
          </span>
        )}
      </div>
    </form>
  );
}
