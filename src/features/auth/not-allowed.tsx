// A route the signed-in role may not use (a coordinator typing /admin/...): said plainly, with
// the way home, and none of the screen's own buttons.
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';

export const NOT_ALLOWED_TITLE = 'Not Allowed';
export const NOT_ALLOWED_TEXT = 'This page is not available to this account.';

export function NotAllowed() {
  return (
    <>
      <PageHeader title={NOT_ALLOWED_TITLE} />
      <p>{NOT_ALLOWED_TEXT}</p>
      <Link to={paths.home()}>Back to the Dashboard</Link>
    </>
  );
}
