// A small state label (PrimeReact Tag) in the portal's banner colours, which keep 4.5:1 contrast
// (Lara's own tag colours put white text on orange and light red, below it).
import { Tag } from 'primereact/tag';
import './status-tag.css';

export type StatusSeverity = 'success' | 'info' | 'warning' | 'danger' | 'secondary';

export function StatusTag({ value, severity, className }: { value: string; severity: StatusSeverity; className?: string }) {
  return <Tag value={value} severity={severity} className={`status-tag${className ? ` ${className}` : ''}`} />;
}
