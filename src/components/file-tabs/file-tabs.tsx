// The file menu: the file's screens as tabs (Overview, Responses) and the original PDF's download
// (GET /api/file/{id}.pdf, offered to admins only: the server refuses everyone else). Used on the
// file detail, its responses and a response's student info.
import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { Button } from 'primereact/button';
import { getDownloadFileUrl } from '../../../generated/hooks/files/files';
import { paths } from '../../config/paths';
import { downloadPdf } from '../../lib/api-client';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import './file-tabs.css';

export function FileTabs({ fileId }: { fileId: string }) {
  const showDownload = isScanningAdmin(useCurrentUser());
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadPdf(getDownloadFileUrl(fileId), fileId);
    } catch (error) {
      // Spec §7: a failed download only stops the spinner and is logged.
      console.error(error);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <nav className="file-tabs" aria-label="File menu">
      <NavLink end to={paths.file(fileId)} className="file-tab">
        Overview
      </NavLink>
      <NavLink end to={paths.fileResponses(fileId)} className="file-tab">
        Responses
      </NavLink>
      {showDownload && (
        <Button
          type="button"
          label="Original PDF"
          icon="pi pi-download"
          text
          size="small"
          loading={downloading}
          onClick={() => void download()}
        />
      )}
    </nav>
  );
}
