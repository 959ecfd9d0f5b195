// npm run contract:test -- --base-url URL [--email E --password P]... [--cookie C]... [--junit FILE]
// Checks a live server against the contract: prints a table and `N passed, N failed, N skipped`,
// exits 1 on any failure. Each --email/--password pair (or --cookie) is a session; the check
// asks the server who it is: a scanning admin is required, a coordinator is optional.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import document from '../../generated/openapi.json' with { type: 'json' };
import { formatResults, junitXml, runContractCheck } from './contract-check';
import { signInLive } from './live-sign-in';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: 'http://localhost:3000' },
    cookie: { type: 'string', multiple: true, default: [] },
    email: { type: 'string', multiple: true, default: [] },
    password: { type: 'string', multiple: true, default: [] },
    junit: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`contract check: every operation of the contract against a live server, leaving its data as it was.
  --base-url URL           the server (default http://localhost:3000)
  --email E --password P   sign in through the server's sign-in page (repeat per role)
  --cookie "session=..."   or give a session cookie (repeat per role)
  --junit FILE             also write JUnit XML`);
  process.exit(0);
}

const baseUrl = values['base-url'];
/** Each session's cookie, and whether the check signed it in (then logout may end it). */
const sessions = values.cookie.map((cookie) => ({ cookie, own: false }));
for (let i = 0; i < values.email.length; i++) {
  sessions.push({ cookie: await signInLive(baseUrl, values.email[i]!, values.password[i] ?? ''), own: true });
}

const roles: Record<string, { cookie: string; own: boolean }> = {};
for (const session of sessions) {
  const response = await fetch(new URL('/api/auth/me', baseUrl), { headers: { cookie: session.cookie } });
  const me = (await response.json().catch(() => ({}))) as { role?: string };
  if (response.status !== 200 || !me.role) {
    console.error(`A session was refused by /api/auth/me (status ${response.status}).`);
    process.exit(2);
  }
  roles[me.role] ??= session;
}
const admin = roles.scanning_admin;
if (!admin) {
  console.error('The check needs a scanning admin: give --email and --password (or --cookie) of one.');
  process.exit(2);
}

const { results } = await runContractCheck({
  document,
  baseUrl,
  admin: admin.cookie,
  coordinator: roles.study_helper_coordinator?.cookie,
  ownSessions: admin.own,
});
console.log(formatResults(results));
if (values.junit) writeFileSync(values.junit, junitXml(results));
process.exit(results.some((r) => r.outcome === 'fail') ? 1 : 0);
