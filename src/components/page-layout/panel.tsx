// A titled panel of a detail screen (a card with an h2 heading and optional actions); the
// section is named by its heading, so screen readers list it as a region.
import { useId, type ReactNode } from 'react';
import './page-layout.css';

export interface PanelProps {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

export function Panel({ title, actions, children, className }: PanelProps) {
  const headingId = useId();
  return (
    <section className={className ? `panel ${className}` : 'panel'} aria-labelledby={headingId}>
      <div className="panel-header">
        <h2 id={headingId} className="panel-title">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
