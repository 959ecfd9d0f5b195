// msw/node for the web tests: the generated handlers, signed in as a chosen mock user; tests add
// their own overrides with server.use(...).
import { setupServer } from 'msw/node';
import { generatedHandlers, meHandler, type MockRole } from './handlers';

let signedInAs: MockRole = 'admin';

export const server = setupServer(meHandler(() => signedInAs), ...generatedHandlers());

export function signInAs(role: MockRole): void {
  signedInAs = role;
}
