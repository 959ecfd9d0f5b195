// The page chrome around every signed-in screen: top bar, role tabs, the 4em banner area, the
// content (at most 1400px wide) and the footer.
import type { ReactNode } from 'react';
import type { CurrentUser } from '../../lib/auth';
import { BannerArea } from '../notifications/banner-area';
import { Footer } from './footer';
import { NavTabsBar } from './nav-tabs-bar';
import { TopBar } from './top-bar';

export interface AppLayoutProps {
  user: CurrentUser;
  /** False when the content is blocked (no tabs lead anywhere). */
  showTabs?: boolean;
  children: ReactNode;
}

export function AppLayout({ user, showTabs = true, children }: AppLayoutProps) {
  return (
    <div className="app-shell">
      <header className="app-header">
        <div className="app-width">
          <TopBar user={user} />
          {showTabs && <NavTabsBar role={user.role} />}
        </div>
      </header>
      <div className="app-width">
        <BannerArea />
      </div>
      <main className="app-content app-width">{children}</main>
      <Footer />
    </div>
  );
}
