// The state of a file in the files tables: the admin's status icon and the coordinator's
// congregation file state (rules in file-status.ts).
import { StatusTag } from '../../components/status-tag/status-tag';
import type { File } from '../../../generated/hooks/model';
import { adminFileStatus, congregationFileState } from './file-status';

export function AdminFileStatusIcon({ file }: { file: File }) {
  const status = adminFileStatus(file);
  return (
    <span className={`file-status file-status-${status.severity}`} data-status={status.key}>
      <span className={`pi ${status.icon}`} role="img" aria-label={status.label} title={status.label} />
    </span>
  );
}

export function CongregationFileStateTag({ file }: { file: File }) {
  const state = congregationFileState(file);
  return (
    <span className="file-state">
      {state.alert && (
        <span className="pi pi-exclamation-triangle file-state-alert" role="img" aria-label={state.alert} title={state.alert} />
      )}
      <StatusTag value={state.label} severity={state.severity} />
    </span>
  );
}
