// /admin/congregations/{group_id}/ (spec §2): tiles for the congregation's Files and Emails.
import { Tile, TileGrid } from '../../components/ui/tile';
import { paths, routes } from '../../config/paths';
import { CongregationPage, useGroupId } from './congregation-page';

export default function CongregationHome() {
  const groupId = useGroupId();
  return (
    <CongregationPage groupId={groupId} current="home" title={routes.congregation.title}>
      <TileGrid label="Congregation shortcuts">
        <Tile label="Files" to={paths.congregationFiles(groupId)} icon="pi-file" />
        <Tile label="Emails" to={paths.congregationEmails(groupId)} icon="pi-envelope" />
      </TileGrid>
    </CongregationPage>
  );
}
