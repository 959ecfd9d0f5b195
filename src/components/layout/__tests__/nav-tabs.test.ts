import { describe, expect, it } from 'vitest';
import { addressMatchScore, findActiveTab, tabsForRole, type CurrentAddress } from '../nav-tabs';

const at = (address: string): CurrentAddress => {
  const url = new URL(address, 'http://portal.test');
  return { pathname: url.pathname, search: url.search };
};
const activeLabel = (role: Parameters<typeof tabsForRole>[0], address: string) =>
  findActiveTab(tabsForRole(role), at(address))?.label;

describe('tabsForRole', () => {
  it('gives the spec\'s tabs, in order, per role', () => {
    expect(tabsForRole('study_helper_coordinator').map((t) => [t.label, t.href])).toEqual([
      ['Dashboard', '/'],
      ['Ready to Print', '/files?mode=print'],
      ['Files', '/files'],
      ['Baptism Requests', '/baptism-requests'],
      ['Study Helpers', '/study-helpers'],
      ['Students', '/students'],
      ['Resources', '/resources'],
    ]);
    expect(tabsForRole('scanning_admin').map((t) => [t.label, t.href])).toEqual([
      ['Dashboard', '/'],
      ['Files', '/files'],
      ['Congregations', '/admin/congregations'],
      ['Service Centers', '/admin/service-centers'],
      ['Students', '/students'],
      ['Baptism Requests', '/baptism-requests'],
    ]);
    expect(tabsForRole('standard_user')).toEqual([]);
  });
});

describe('findActiveTab for a study_helper_coordinator', () => {
  const role = 'study_helper_coordinator' as const;
  it.each([
    ['/', 'Dashboard'],
    ['/files', 'Files'],
    ['/files/', 'Files'],
    ['/files?mode=all', 'Files'],
    ['/files?mode=print', 'Ready to Print'],
    ['/files/?mode=print&page=2', 'Ready to Print'],
    ['/file/7f7a/', 'Files'],
    ['/file/7f7a/responses', 'Files'],
    ['/files/uploads', 'Files'],
    ['/files/uploads/42', 'Files'],
    ['/baptism-requests/', 'Baptism Requests'],
    ['/study-helpers', 'Study Helpers'],
    ['/study-helpers/abc/students/def', 'Study Helpers'],
    ['/students?country=GH', 'Students'],
    ['/students/abc/uploads/def', 'Students'],
    ['/resources', 'Resources'],
  ])('%s highlights %s', (address, label) => {
    expect(activeLabel(role, address)).toBe(label);
  });

  it('highlights nothing for an address no tab matches', () => {
    expect(activeLabel(role, '/graded')).toBeUndefined();
    expect(activeLabel(role, '/filesystem')).toBeUndefined();
    expect(activeLabel(role, '/responses/1')).toBeUndefined();
  });
});

describe('findActiveTab for a scanning_admin', () => {
  const role = 'scanning_admin' as const;
  it.each([
    ['/', 'Dashboard'],
    ['/files', 'Files'],
    ['/files?mode=print', 'Files'],
    ['/responses/abc/', 'Files'],
    ['/responses/abc/student-info', 'Files'],
    ['/admin/congregations/', 'Congregations'],
    ['/admin/congregations/abc/files', 'Congregations'],
    ['/admin/service-centers/abc', 'Service Centers'],
    ['/students/abc', 'Students'],
    ['/baptism-requests', 'Baptism Requests'],
  ])('%s highlights %s', (address, label) => {
    expect(activeLabel(role, address)).toBe(label);
  });

  it('does not highlight Dashboard below other addresses', () => {
    expect(activeLabel(role, '/admin/pages/1')).toBeUndefined();
  });
});

describe('addressMatchScore', () => {
  it('prefers a longer path, then more matching query parameters', () => {
    const files = addressMatchScore('/files', at('/files/uploads?mode=print'));
    const uploads = addressMatchScore('/files/uploads', at('/files/uploads?mode=print'));
    const print = addressMatchScore('/files?mode=print', at('/files?mode=print'));
    expect(uploads).toBeGreaterThan(files);
    expect(print).toBeGreaterThan(addressMatchScore('/files', at('/files?mode=print')));
  });

  it('needs every query parameter of the tab address', () => {
    expect(addressMatchScore('/files?mode=print', at('/files'))).toBe(-1);
    expect(addressMatchScore('/files?mode=all', at('/files?mode=print'))).toBe(-1);
  });

  it('matches "/" only at the root and a trailing-slash address only below it', () => {
    expect(addressMatchScore('/', at('/students'))).toBe(-1);
    expect(addressMatchScore('/file/', at('/file'))).toBe(-1);
    expect(addressMatchScore('/file/', at('/file/1'))).toBeGreaterThan(0);
  });
});
