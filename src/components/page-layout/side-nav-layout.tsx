// A screen with side links on the left (a named navigation) and its content on the right.
import type { ReactNode } from 'react';
import './page-layout.css';

export interface SideNavLayoutProps {
  /** The navigation's accessible name. */
  label: string;
  nav: ReactNode;
  children: ReactNode;
}

export function SideNavLayout({ label, nav, children }: SideNavLayoutProps) {
  return (
    <div className="side-nav-layout">
      <nav className="side-nav" aria-label={label}>
        {nav}
      </nav>
      <div>{children}</div>
    </div>
  );
}
