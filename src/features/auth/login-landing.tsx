// The login landing (spec §2 "Access screens"): the portal title, a "presented by" line and a
// Login button that starts sign-in at /api/auth/login.
import { Button } from 'primereact/button';
import logoUrl from '../../assets/logo.svg';
import { organisation } from '../../config/organisation';
import { authPaths } from '../../config/paths';
import { useLocation } from 'react-router-dom';
import { browserLocation, signInAddress } from '../../lib/browser-location';

export function LoginLanding() {
  const here = useLocation();
  return (
    <main className="access-screen">
      <div className="access-card">
        <img src={logoUrl} alt="" width={72} height={72} />
        <h1>{organisation.portalTitle}</h1>
        <p className="access-presented-by">presented by {organisation.name}</p>
        <Button type="button" label="Login" icon="pi pi-sign-in" onClick={() => browserLocation.assign(signInAddress(authPaths.login, `${here.pathname}${here.search}`))} />
      </div>
    </main>
  );
}
