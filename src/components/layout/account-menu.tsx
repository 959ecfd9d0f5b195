// The account menu of the top bar: titled "Admin" for a scanning_admin, else the congregation's
// wbs_code; holds "Exit View As" (when allowed), "Profile" (e-mail settings) and "Log Out".
import { useRef } from 'react';
import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { accountMenuTitle, type CurrentUser } from '../../lib/auth';
import { useCurrentCongregation } from '../../lib/current-congregation';
import { useViewAs } from '../../lib/view-as';
import { useNavigate } from 'react-router-dom';
import { authPaths, paths } from '../../config/paths';
import { browserLocation } from '../../lib/browser-location';

const MENU_ID = 'account-menu';

export function AccountMenu({ user }: { user: CurrentUser }) {
  const menu = useRef<Menu>(null);
  const congregation = useCurrentCongregation(user);
  const viewAs = useViewAs(user);
  const title = accountMenuTitle(user, congregation?.wbs_code);
  const navigate = useNavigate();

  const items: MenuItem[] = [];
  if (viewAs.canExit) {
    items.push({
      label: 'Exit View As',
      icon: 'pi pi-eye-slash',
      disabled: viewAs.busy,
      command: () => (viewAs.failed ? viewAs.retry() : viewAs.exit()),
    });
  }
  items.push({ label: 'Profile', icon: 'pi pi-cog', command: () => navigate(paths.profile()) });
  // A form's post from the portal (a full page load): the server's GET only shows a button.
  items.push({ label: 'Log Out', icon: 'pi pi-sign-out', command: () => browserLocation.post(authPaths.logout) });

  return (
    <div className="account-menu">
      <Button
        type="button"
        className="account-menu-button"
        label={title || 'Account'}
        icon="pi pi-user"
        iconPos="left"
        text
        aria-haspopup="menu"
        aria-controls={MENU_ID}
        onClick={(event) => menu.current?.toggle(event)}
      />
      <Menu model={items} popup ref={menu} id={MENU_ID} popupAlignment="right" />
    </div>
  );
}
