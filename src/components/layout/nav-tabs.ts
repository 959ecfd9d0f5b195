// The top navigation tabs per role (spec §2 "Page chrome") and which one the current address
// highlights. Pure, so the matching rules are tested without rendering.
import type { Role } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';

export interface NavTab {
  label: string;
  /** Where the tab links. */
  href: string;
  /** Further addresses that also highlight this tab (a trailing "/" matches everything below it). */
  alsoFor?: readonly string[];
}

const dashboard: NavTab = { label: 'Dashboard', href: paths.home() };
const students: NavTab = { label: 'Students', href: paths.students() };
const baptismRequests: NavTab = { label: 'Baptism Requests', href: paths.baptismRequests() };

const coordinatorTabs: readonly NavTab[] = [
  dashboard,
  { label: 'Ready to Print', href: paths.files('print') },
  { label: 'Files', href: paths.files(), alsoFor: ['/file/', paths.uploads(), paths.files('all')] },
  baptismRequests,
  { label: 'Study Helpers', href: paths.studyHelpers() },
  students,
  { label: 'Resources', href: paths.resources() },
];

const adminTabs: readonly NavTab[] = [
  dashboard,
  { label: 'Files', href: paths.files(), alsoFor: ['/responses'] },
  { label: 'Congregations', href: paths.congregations() },
  { label: 'Service Centers', href: paths.serviceCenters() },
  students,
  baptismRequests,
];

export function tabsForRole(role: Role): readonly NavTab[] {
  switch (role) {
    case 'scanning_admin':
      return adminTabs;
    case 'study_helper_coordinator':
      return coordinatorTabs;
    default:
      return [];
  }
}

export interface CurrentAddress {
  pathname: string;
  /** The query string, with or without its leading "?". */
  search: string;
}

function trimTrailingSlashes(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/**
 * How well one tab address matches the current address: -1 for no match, else higher for a
 * longer matching path, then for more matching query parameters.
 * - "/" matches only the root;
 * - an address ending in "/" (like "/file/") matches every path below it;
 * - any other path matches itself and the paths below it ("/students" matches "/students/42");
 * - every query parameter of the tab address must be present with the same value.
 */
export function addressMatchScore(tabAddress: string, current: CurrentAddress): number {
  const [rawPath = '', rawQuery = ''] = tabAddress.split('?', 2);
  const pathname = trimTrailingSlashes(current.pathname);
  const currentQuery = new URLSearchParams(current.search);

  let pathMatches: boolean;
  let pathLength: number;
  if (rawPath === '/') {
    pathMatches = pathname === '/';
    pathLength = 1;
  } else if (rawPath.endsWith('/')) {
    pathMatches = `${pathname}/`.startsWith(rawPath) && pathname.length >= rawPath.length;
    pathLength = rawPath.length;
  } else {
    pathMatches = pathname === rawPath || pathname.startsWith(`${rawPath}/`);
    pathLength = rawPath.length;
  }
  if (!pathMatches) return -1;

  const wanted = [...new URLSearchParams(rawQuery).entries()];
  if (!wanted.every(([key, value]) => currentQuery.get(key) === value)) return -1;
  return pathLength * 100 + wanted.length;
}

/** The tab whose address best matches the current address, or undefined when none does. */
export function findActiveTab(tabs: readonly NavTab[], current: CurrentAddress): NavTab | undefined {
  let best: NavTab | undefined;
  let bestScore = -1;
  for (const tab of tabs) {
    for (const address of [tab.href, ...(tab.alsoFor ?? [])]) {
      const score = addressMatchScore(address, current);
      if (score > bestScore) {
        best = tab;
        bestScore = score;
      }
    }
  }
  return best;
}
