// The home page "/" (and /study-helpers/{helper_id}/, which shows the same): the admin home for a
// scanning_admin, the congregation dashboard for everyone else, "No Group Assigned" without one.
import { hasCongregation, isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { NoGroup } from '../../components/ui/no-group';
import AdminDashboard from './admin-dashboard';
import { CongregationDashboard } from './congregation-dashboard';

export default function HomeDashboard() {
  const user = useCurrentUser();
  if (isScanningAdmin(user)) return <AdminDashboard />;
  if (!hasCongregation(user)) return <NoGroup email={user.email} />;
  return <CongregationDashboard user={user} />;
}
