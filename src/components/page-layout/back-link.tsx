// The "Back to …" link at the top of a detail screen.
import { Link } from 'react-router-dom';
import './page-layout.css';

export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="back-link">
      <span className="pi pi-arrow-left" aria-hidden="true" />
      {label}
    </Link>
  );
}
