// The role's navigation tabs under the top bar, the best match of the address highlighted. On a
// narrow screen the row scrolls sideways (brand.css) and the highlighted tab is scrolled into view.
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { Role } from '../../../generated/hooks/model';
import { findActiveTab, tabsForRole } from './nav-tabs';

export function NavTabsBar({ role }: { role: Role }) {
  const location = useLocation();
  const activeLink = useRef<HTMLAnchorElement>(null);
  const tabs = tabsForRole(role);
  const active = findActiveTab(tabs, location);
  const activeHref = active?.href;
  const list = useRef<HTMLUListElement>(null);
  // More tabs past the right edge: the row fades out there, so it reads as one to scroll.
  const [more, setMore] = useState(false);
  const measure = () => {
    const ul = list.current;
    if (ul) setMore(ul.scrollLeft + ul.clientWidth < ul.scrollWidth - 1);
  };
  useEffect(() => {
    activeLink.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [activeHref]);
  if (tabs.length === 0) return null;
  return (
    <nav className={`nav-tabs p-tabmenu p-component${more ? ' nav-tabs-more' : ''}`} aria-label="Main">
      <ul className="p-tabmenu-nav" ref={list} onScroll={measure}>
        {tabs.map((tab) => {
          const isActive = tab === active;
          return (
            <li key={tab.label} className={`p-tabmenuitem${isActive ? ' p-highlight' : ''}`}>
              <Link
                to={tab.href}
                ref={isActive ? activeLink : undefined}
                className="p-menuitem-link"
                aria-current={isActive ? 'page' : undefined}
              >
                <span className="p-menuitem-text">{tab.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
