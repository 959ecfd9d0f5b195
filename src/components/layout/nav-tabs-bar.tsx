// The role's navigation tabs under the top bar, the best match of the address highlighted.
import { Link, useLocation } from 'react-router-dom';
import type { Role } from '../../../generated/hooks/model';
import { findActiveTab, tabsForRole } from './nav-tabs';

export function NavTabsBar({ role }: { role: Role }) {
  const location = useLocation();
  const tabs = tabsForRole(role);
  if (tabs.length === 0) return null;
  const active = findActiveTab(tabs, location);
  return (
    <nav className="nav-tabs p-tabmenu p-component" aria-label="Main">
      <ul className="p-tabmenu-nav">
        {tabs.map((tab) => {
          const isActive = tab === active;
          return (
            <li key={tab.label} className={`p-tabmenuitem${isActive ? ' p-highlight' : ''}`}>
              <Link to={tab.href} className="p-menuitem-link" aria-current={isActive ? 'page' : undefined}>
                <span className="p-menuitem-text">{tab.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
