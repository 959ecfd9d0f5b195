// The footer: the organisation's 2024 copyright, Privacy Policy and Terms of Use.
import { COPYRIGHT_YEAR, organisation } from '../../config/organisation';

export function Footer() {
  return (
    <footer className="app-footer">
      <span>
        © {COPYRIGHT_YEAR} {organisation.name}
      </span>
      <nav aria-label="Legal" className="app-footer-links">
        <a href={organisation.privacyPolicyUrl}>Privacy Policy</a>
        <a href={organisation.termsOfUseUrl}>Terms of Use</a>
      </nav>
    </footer>
  );
}
