// For a visitor who is signed in without an e-mail, or refused by the server: no app content,
// a way to sign in again with another account.
import { Button } from 'primereact/button';
import { organisation } from '../../config/organisation';
import { authPaths } from '../../config/paths';
import { useLocation } from 'react-router-dom';
import { browserLocation, signInAddress } from '../../lib/browser-location';

export function Unauthorised() {
  const here = useLocation();
  return (
    <main className="access-screen">
      <div className="access-card">
        <h1>Not Authorised</h1>
        <p>Your account is not authorised to use the {organisation.portalTitle}.</p>
        <p>Sign in with another account, or contact your representative of {organisation.name}.</p>
        <div className="access-actions">
          <Button type="button" label="Log Out" outlined onClick={() => browserLocation.post(authPaths.logout)} />
          <Button type="button" label="Login" onClick={() => browserLocation.assign(signInAddress(authPaths.login, `${here.pathname}${here.search}`))} />
        </div>
      </div>
    </main>
  );
}
