// A link that looks like an outlined button: for going somewhere (a button would act).
import { Link } from 'react-router-dom';

export function LinkButton({ to, icon, label }: { to: string; /** A PrimeIcons class, e.g. "pi-inbox". */ icon: string; label: string }) {
  return (
    <Link to={to} className="p-button p-button-outlined link-button">
      <span className={`pi ${icon}`} aria-hidden="true" />
      <span>{label}</span>
    </Link>
  );
}
