// What a fresh installation shows: a believable, small programme to click through.
import { CONGREGATIONS, SERVICE_CENTERS } from '../../demo/programme';

export const DEMO_PASSWORD = 'demo';

export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.local', role: 'scanning_admin', isAdmin: true, congregation: null },
  { email: 'coordinator@demo.local', role: 'study_helper_coordinator', isAdmin: false, congregation: 0 },
  { email: 'user@demo.local', role: 'standard_user', isAdmin: false, congregation: null },
] as const;

// The programme itself (courses, names, study helpers...) is shared with the web app's mock world
// in demo/programme; a fresh installation shows these of its service centers and congregations.
export const DEMO_SERVICE_CENTERS = SERVICE_CENTERS.slice(0, 3);
export const DEMO_CONGREGATIONS = CONGREGATIONS.slice(0, 4);

export const DEMO_STUDENT_COUNT = 60;

export const GENDERS = ['his_Male', 'her_Female', 'their_Prefer Not to Answer'] as const;
export const RELATIONSHIP_STATUSES = ['married', 'single', 'divorced', 'widowed', 'separated', 'prefer_not_to_say'] as const;

export const DEMO_BAPTISM_STATUSES = ['pending', 'waiting_on_recruiter', 'missing_info', 'completed'] as const;
