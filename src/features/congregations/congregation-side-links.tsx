// The side links of the congregation pages (spec §2): Files, Study Helpers, Emails and, for is_admin
// users, "View As", which acts as this congregation (the View As machine through useViewAs) and
// then starts the app over at /.
import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useCurrentUser, type CurrentUser } from '../../lib/auth';
import { useViewAs } from '../../lib/view-as';

export type CongregationPageId = 'home' | 'files' | 'studyHelpers' | 'emails';

export const VIEW_AS_LABEL = 'View As';
export const VIEW_AS_FAILED = 'View As failed. Please try again.';

function ViewAsLink({ user, groupId }: { user: CurrentUser; groupId: string }) {
  const viewAs = useViewAs(user);
  if (!viewAs.canEnter) return null;
  return (
    <>
      <button
        type="button"
        className="side-nav-link"
        disabled={viewAs.busy}
        aria-busy={viewAs.busy || undefined}
        onClick={() => (viewAs.failed ? viewAs.retry() : viewAs.enter(groupId))}
      >
        <span className={viewAs.busy ? 'pi pi-spin pi-spinner' : 'pi pi-eye'} aria-hidden="true" />
        {VIEW_AS_LABEL}
      </button>
      {viewAs.failed && (
        <div role="alert" className="side-nav-alert">
          <span>{VIEW_AS_FAILED}</span>
          <span className="side-nav-alert-actions">
            <Button type="button" label="Try again" size="small" onClick={viewAs.retry} />
            <Button type="button" label="Cancel" size="small" outlined onClick={viewAs.cancel} />
          </span>
        </div>
      )}
    </>
  );
}

export function CongregationSideLinks({ groupId, current }: { groupId: string; current: CongregationPageId }) {
  const user = useCurrentUser();
  const links: { id: CongregationPageId; label: string; to: string; icon: string }[] = [
    { id: 'files', label: 'Files', to: paths.congregationFiles(groupId), icon: 'pi-file' },
    { id: 'studyHelpers', label: 'Study Helpers', to: paths.congregationStudyHelpers(groupId), icon: 'pi-user-edit' },
    { id: 'emails', label: 'Emails', to: paths.congregationEmails(groupId), icon: 'pi-envelope' },
  ];
  return (
    <>
      {links.map((link) => (
        <Link
          key={link.id}
          to={link.to}
          className="side-nav-link"
          aria-current={link.id === current ? 'page' : undefined}
        >
          <span className={`pi ${link.icon}`} aria-hidden="true" />
          {link.label}
        </Link>
      ))}
      <ViewAsLink user={user} groupId={groupId} />
    </>
  );
}
