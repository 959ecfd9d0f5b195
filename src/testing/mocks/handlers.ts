// The signed-in users a mock can play, shared by `npm run dev:mock` (browser worker) and the web
// tests (msw/node); the calls themselves, getMe too, are answered by the mock world (./world).
import type { AboutMe } from '../../../generated/hooks/model';
import { HOME_CONGREGATION } from './world/world';

/** The coordinator's congregation: the first congregation of every mock world. */
export const DEMO_CONGREGATION_ID = HOME_CONGREGATION.id;

/** The signed-in users a mock can play, by the name `?as=` takes. null: nobody signed in (401). */
export const MOCK_USERS = {
  admin: { email: 'admin@demo.local', role: 'scanning_admin', congregation: '', is_admin: true, wbs_code: '', display_name: '' },
  coordinator: {
    email: 'coordinator@demo.local',
    role: 'study_helper_coordinator',
    congregation: DEMO_CONGREGATION_ID,
    is_admin: false,
    wbs_code: 'US 1234',
    display_name: 'Springfield North',
  },
  /** An admin acting as a congregation (View As): sees "Exit View As". */
  'view-as': {
    email: 'admin@demo.local',
    role: 'study_helper_coordinator',
    congregation: DEMO_CONGREGATION_ID,
    is_admin: true,
    wbs_code: 'US 1234',
    display_name: 'Springfield North',
  },
  user: {
    email: 'member@demo.local',
    role: 'standard_user',
    congregation: DEMO_CONGREGATION_ID,
    is_admin: false,
    wbs_code: 'US 1234',
    display_name: 'Springfield North',
  },
  'no-group': { email: 'Newcomer@Demo.Local', role: 'standard_user', congregation: '', is_admin: false, wbs_code: '', display_name: '' },
  'no-email': { email: '', role: 'standard_user', congregation: '', is_admin: false },
  'signed-out': null,
} as const satisfies Record<string, AboutMe | null>;

export type MockRole = keyof typeof MOCK_USERS;

export function isMockRole(value: string | null | undefined): value is MockRole {
  return value !== null && value !== undefined && Object.hasOwn(MOCK_USERS, value);
}
