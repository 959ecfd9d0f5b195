// The top bar: the logo (a link home) and the account menu.
import { Link } from 'react-router-dom';
import logoUrl from '../../assets/logo.svg';
import { organisation } from '../../config/organisation';
import { paths } from '../../config/paths';
import type { CurrentUser } from '../../lib/auth';
import { AccountMenu } from './account-menu';

export function TopBar({ user }: { user: CurrentUser }) {
  return (
    <div className="top-bar">
      <Link to={paths.home()} className="top-bar-logo" aria-label={`${organisation.portalTitle} home`}>
        <img src={logoUrl} alt="" width={40} height={40} />
        <span className="top-bar-title">{organisation.portalTitle}</span>
      </Link>
      <AccountMenu user={user} />
    </div>
  );
}
