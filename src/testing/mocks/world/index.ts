// The mock world served over MSW: one object holding the world of the chosen scenario and every
// handler of the contract over it, shared by `npm run dev:mock` (browser worker) and the web tests
// (msw/node). Scenarios: default (a small programme), empty (no records: only the countries, the
// courses and the signed-in coordinator's congregation), busy (hundreds of files and students, six
// still processing), errors (the default world, but every change is refused with the spec's
// errors and every job fails).
import type { HttpHandler } from 'msw';
import { MOCK_USERS, type MockRole } from '../handlers';
import { worldGate } from './gate';
import type { WorldAccess } from './http';
import { answerSheetResponders } from './operations/answer-sheets';
import { authResponders } from './operations/auth';
import { baptismResponders } from './operations/baptism';
import { congregationEmailResponders } from './operations/congregation-emails';
import { congregationResponders } from './operations/congregations';
import { fileChangeResponders } from './operations/file-changes';
import { fileUploadResponders } from './operations/file-upload';
import { fileResponders } from './operations/files';
import { housekeepingResponders } from './operations/housekeeping';
import { worldLookups } from './operations/lookups';
import { mailResponders } from './operations/mail';
import { pageResponders } from './operations/pages';
import { progressResponders } from './operations/progress';
import { referenceResponders } from './operations/reference';
import { resumableUploadResponders } from './operations/resumable-uploads';
import { serviceCenterPeopleResponders } from './operations/service-center-people';
import { serviceCenterResponders } from './operations/service-centers';
import { studentResponders } from './operations/students';
import { studyHelperResponders } from './operations/study-helpers';
import { uploadResponders } from './operations/uploads';
import type { Viewer } from './views';
import { seedWorld, type Scenario, type World } from './world';

export { isScenario, SCENARIOS, type Scenario } from './world';

export interface MockWorld {
  handlers: HttpHandler[];
  /** The world's rows as they are now. */
  world(): World;
  /** Starts the scenario's world again from its seed. */
  reset(scenario?: Scenario): void;
}

export interface MockWorldOptions {
  scenario: Scenario;
  /** The mock user asking, at the time of each request. */
  role: () => MockRole;
  /** Called when the user switches with View As (the role to play from then on). */
  onViewAs: (role: MockRole) => void;
  progressIntervalMs?: number;
}

/** null for a scanning admin (sees everything), else the congregation acted for ('' for none). */
function viewerOf(role: MockRole): Viewer {
  const user = MOCK_USERS[role];
  if (user === null) return '';
  return user.role === 'scanning_admin' ? null : user.congregation;
}

export function createMockWorld(options: MockWorldOptions): MockWorld {
  let current = seedWorld(options.scenario);
  let scenario = options.scenario;
  const access: WorldAccess = {
    world: () => current,
    viewer: () => viewerOf(options.role()),
    userEmail: () => MOCK_USERS[options.role()]?.email ?? '',
    userRole: () => MOCK_USERS[options.role()]?.role ?? null,
    progressIntervalMs: options.progressIntervalMs ?? 400,
  };
  const lookups = worldLookups(access);
  // Every operation of the contract, answered over the world by its generated handler. Order
  // matters only where one path takes another's calls (see fileResponders).
  const operations = [
    ...authResponders(options.role, options.onViewAs),
    ...fileResponders(access, lookups),
    ...fileChangeResponders(access, lookups),
    ...fileUploadResponders(access),
    ...answerSheetResponders(access, lookups),
    ...pageResponders(access, lookups),
    ...uploadResponders(access),
    ...resumableUploadResponders(access),
    ...progressResponders(access),
    ...studyHelperResponders(access, lookups),
    ...studentResponders(access, lookups),
    ...baptismResponders(access, lookups),
    ...serviceCenterResponders(access, lookups),
    ...serviceCenterPeopleResponders(access, lookups),
    ...congregationResponders(access, lookups),
    ...congregationEmailResponders(access, lookups),
    ...mailResponders(access),
    ...referenceResponders(access),
    ...housekeepingResponders((world) => {
      current = world;
    }),
  ];
  const gate = worldGate({
    operations,
    signedIn: () => MOCK_USERS[options.role()] !== null,
    refusesChanges: () => current.scenario === 'errors',
  });
  return {
    handlers: [gate, ...operations],
    world: () => current,
    reset(next = scenario) {
      scenario = next;
      current = seedWorld(next);
    },
  };
}
