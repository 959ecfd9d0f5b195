// /admin/congregations/{group_id}/ (spec §2): tiles for the congregation's Files and Emails.
import { Tile, TileGrid } from '../../components/ui/tile';
import { paths, routes } from '../../config/paths';
import { CongregationPage, useGroupId } from './congregation-page';

/** The contract has no congregation e-mail calls and the route table no e-mail page yet. */
export const EMAILS_UNAVAILABLE = 'Not available yet';

function EmailsTile() {
  return (
    <div className="tile tile-disabled" aria-disabled="true">
      <span className="pi pi-envelope tile-icon" aria-hidden="true" />
      <span className="tile-label">Emails</span>
      <span className="tile-note">{EMAILS_UNAVAILABLE}</span>
    </div>
  );
}

export default function CongregationHome() {
  const groupId = useGroupId();
  return (
    <CongregationPage groupId={groupId} current="home" title={routes.congregation.title}>
      <TileGrid label="Congregation shortcuts">
        <Tile label="Files" to={paths.congregationFiles(groupId)} icon="pi-file" />
        <EmailsTile />
      </TileGrid>
    </CongregationPage>
  );
}
