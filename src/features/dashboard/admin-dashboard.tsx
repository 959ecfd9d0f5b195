// The admin home (spec §2 "Admin dashboard"): header "Admin", subtitle "Admin Tag", the spec's six
// tiles and Mail (what the portal e-mailed, and what failed), and a link to the uploads and their reports.
import { LinkButton } from '../../components/ui/link-button';
import { PageHeader } from '../../components/ui/page-header';
import { Tile, TileGrid } from '../../components/ui/tile';
import { paths, routes } from '../../config/paths';

// The spec links Upload and Files to "/files/" (the route's own pattern), where the upload lives.
const filesRoot = routes.files.pattern;

export default function AdminDashboard() {
  return (
    <>
      {/* Upload reports sit beside the spec's six tiles, not among them. */}
      <PageHeader title="Admin" subtitle="Admin Tag" actions={<LinkButton to={paths.uploads()} icon="pi-inbox" label="Uploads" />} />
      <TileGrid label="Admin">
        <Tile label="Upload" to={filesRoot} icon="pi-upload" />
        <Tile label="Files" to={filesRoot} icon="pi-file" />
        <Tile label="Congregations" to={paths.congregations()} icon="pi-building" />
        <Tile label="Service Centers" to={paths.serviceCenters()} icon="pi-globe" />
        <Tile label="Students" to={paths.students()} icon="pi-users" />
        <Tile label="Baptism Requests" to={paths.baptismRequests()} icon="pi-heart" />
        <Tile label="Mail" to={paths.mail()} icon="pi-envelope" />
      </TileGrid>
    </>
  );
}
