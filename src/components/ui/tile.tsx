// A dashboard tile: a large link with an icon, a label and, when known, a count.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface TileProps {
  label: string;
  to: string;
  /** A PrimeIcons class, e.g. "pi-file". */
  icon: string;
  /** A count shown on the tile (undefined while loading or when the tile has none). */
  count?: number;
}

export function Tile({ label, to, icon, count }: TileProps) {
  return (
    <Link to={to} className="tile">
      <span className={`pi ${icon} tile-icon`} aria-hidden="true" />
      <span className="tile-label">{label}</span>
      {count !== undefined && <span className="tile-count">{count}</span>}
    </Link>
  );
}

export function TileGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <nav className="tile-grid" aria-label={label}>
      {children}
    </nav>
  );
}
