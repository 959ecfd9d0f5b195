// The congregation dashboard (spec §2): the congregation's code and name, an Upload button, and
// tiles with the counts of GET /api/congregations/{id}/stats.
import { lazy, Suspense, useState } from 'react';
import { Button } from 'primereact/button';
import { useGetCongregationStats } from '../../../generated/hooks/congregations/congregations';
import { PageHeader } from '../../components/ui/page-header';
import { Tile, TileGrid } from '../../components/ui/tile';
import { paths } from '../../config/paths';
import type { CurrentUser } from '../../lib/auth';
import { useCurrentCongregation } from '../../lib/current-congregation';

const GradedUploadDialog = lazy(() => import('../../components/upload/graded-upload-dialog'));

export function CongregationDashboard({ user }: { user: CurrentUser }) {
  const congregation = useCurrentCongregation(user);
  const stats = useGetCongregationStats(user.congregation);
  const [uploading, setUploading] = useState(false);

  return (
    <>
      <PageHeader
        title={congregation?.wbs_code ?? ''}
        subtitle={congregation?.display_name}
        actions={<Button type="button" label="Upload" icon="pi pi-upload" onClick={() => setUploading(true)} />}
      />
      <TileGrid label="Dashboard">
        <Tile label="Ready to Print" to={paths.files('print')} icon="pi-print" count={stats.data?.ready_to_print_count} />
        <Tile label="Files" to={paths.files()} icon="pi-file" count={stats.data?.all_files_count} />
        <Tile label="Baptism Requests" to={paths.baptismRequests()} icon="pi-heart" />
        <Tile label="Study Helpers" to={paths.studyHelpers()} icon="pi-user-edit" />
        <Tile label="Students" to={paths.students()} icon="pi-users" />
        <Tile label="Resources" to={paths.resources()} icon="pi-book" />
      </TileGrid>
      {uploading && (
        <Suspense fallback={null}>
          <GradedUploadDialog visible={uploading} onHide={() => setUploading(false)} />
        </Suspense>
      )}
    </>
  );
}
