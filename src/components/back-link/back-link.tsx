// A screen's way back ("Back to All Files", "Back to Responses"...): a link with an arrow.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './back-link.css';

export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="back-link">
      <span className="pi pi-arrow-left" aria-hidden="true" /> {children}
    </Link>
  );
}
