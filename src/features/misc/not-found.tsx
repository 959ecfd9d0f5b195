// Any address outside the route registry.
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';

export default function NotFound() {
  return (
    <>
      <PageHeader title="Page Not Found" />
      <p>There is nothing at this address.</p>
      <Link to={paths.home()}>Back to the Dashboard</Link>
    </>
  );
}
