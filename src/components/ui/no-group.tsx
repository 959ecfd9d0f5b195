// "No Group Assigned" (spec §2): the user's e-mail in lower case and whom to ask.
import { organisation } from '../../config/organisation';

export function NoGroup({ email }: { email: string }) {
  return (
    <section className="access-card no-group">
      <h1>No Group Assigned</h1>
      <p className="no-group-email">{email.toLowerCase()}</p>
      <p>
        Your account is not assigned to a group yet. Please contact your representative of {organisation.name} to fix
        this issue.
      </p>
    </section>
  );
}
