// npm run contract:test -- --base-url URL [--cookie "session=..."] [--email E --password P]
// Checks a live server against the contract and prints a table; exits 1 on any failure.
import { parseArgs } from 'node:util';
import { formatResults, runContractCheck } from './contract-check';
import { signInLive } from './live-sign-in';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: 'http://localhost:3000' },
    cookie: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
  },
});

const baseUrl = values['base-url']!;
let cookie = values.cookie;
if (!cookie && values.email)
  cookie = await signInLive(baseUrl, values.email, values.password ?? '');

const results = await runContractCheck({ baseUrl, cookie });
console.log(formatResults(results));
process.exit(results.every((r) => r.ok) ? 0 : 1);
