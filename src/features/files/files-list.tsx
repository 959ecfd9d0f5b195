// /files/ (spec §2): titled "Files", or "Ready to Print" for ?mode=print. The admin sees the
// upload button and the all-files table with filters; a coordinator its congregation's files;
// mode=print lists the files ready to print with a Print/Download action each.
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_FILES_MODE, type FilesMode } from '../../config/paths';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { AdminFilesTable } from './admin-files-table';
import { CongregationFilesTable } from './congregation-files-table';
import { ReadyToPrintList } from './ready-to-print-list';
import './files.css';

export const FILES_TITLE = 'Files';
export const READY_TO_PRINT_TITLE = 'Ready to Print';

export function filesMode(value: string | null): FilesMode {
  return value === 'print' || value === 'all' ? value : DEFAULT_FILES_MODE;
}

export default function FilesList() {
  const user = useCurrentUser();
  const [search] = useSearchParams();
  const mode = filesMode(search.get('mode'));
  if (mode === 'print') return <ReadyToPrintList title={READY_TO_PRINT_TITLE} />;
  if (isScanningAdmin(user)) return <AdminFilesTable title={FILES_TITLE} />;
  return <CongregationFilesTable title={FILES_TITLE} />;
}
