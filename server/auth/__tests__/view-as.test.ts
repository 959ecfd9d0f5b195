// View As: only is_admin users may act as a congregation; while they do, the server treats
// them as that congregation's coordinator, and "exit" (null) restores them.
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.js';
import { signIn, type SignedIn } from '../../../tests/helpers/sign-in.js';
import { requireAdmin, requireCongregationAccess } from '../session.js';

const probeRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/test/admin-only', async (request) => ({ id: requireAdmin(request).id }));
  app.get<{ Params: { id: string } }>('/api/test/congregations/:id', async (request) => {
    requireCongregationAccess(request, request.params.id);
    return { ok: true };
  });
};

describe('POST /api/auth/view-as', () => {
  let test: TestApp;
  let congregationA: string;
  let congregationB: string;
  let admin: SignedIn;

  beforeAll(async () => {
    test = await createTestApp({ plugins: [probeRoutes] });
    const rows = await test.db.query<{ id: string }>(
      `INSERT INTO congregations (wbs_code, display_name) VALUES ('OK 20001', 'A'), ('OK 20002', 'B') RETURNING id`,
    );
    [congregationA, congregationB] = rows.map((row) => row.id) as [string, string];
    admin = await signIn(test.app, 'admin@example.org', { role: 'scanning_admin', isAdmin: true });
  }, 30_000);

  afterAll(async () => {
    await test?.close();
  });

  const viewAs = (who: SignedIn, body: unknown) =>
    test.app.inject({ method: 'POST', url: '/api/auth/view-as', headers: who.headers, payload: body as object });
  const me = async (who: SignedIn) =>
    (await test.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: who.cookie } })).json();

  it('is refused (403) to users without is_admin, coordinators and scanning_admins alike', async () => {
    const coordinator = await signIn(test.app, 'coord@example.org', {
      role: 'study_helper_coordinator',
      congregationId: congregationA,
    });
    const scanner = await signIn(test.app, 'scanner@example.org', { role: 'scanning_admin', isAdmin: false });
    for (const who of [coordinator, scanner]) {
      const response = await viewAs(who, { congregation: congregationB });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'Forbidden' });
    }
    expect(await me(coordinator)).toMatchObject({ congregation: congregationA });
  });

  it('is refused (401) without a session', async () => {
    const response = await test.app.inject({ method: 'POST', url: '/api/auth/view-as', payload: { congregation: null } });
    expect(response.statusCode).toBe(401);
  });

  it('answers 404 for an unknown congregation and 400 for a malformed body', async () => {
    expect((await viewAs(admin, { congregation: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await viewAs(admin, { congregation: 'not-an-id' })).statusCode).toBe(404);
    expect((await viewAs(admin, { congregation: 42 })).statusCode).toBe(400);
    expect((await viewAs(admin, {})).statusCode).toBe(400);
    expect(await me(admin)).toEqual({ email: 'admin@example.org', role: 'scanning_admin', congregation: '', is_admin: true });
  });

  it('makes the admin act as the coordinator of the congregation until exit', async () => {
    const response = await viewAs(admin, { congregation: congregationA });
    expect(response.statusCode).toBe(200);
    const acting = { email: 'admin@example.org', role: 'study_helper_coordinator', congregation: congregationA, is_admin: true };
    expect(response.json()).toEqual(acting);
    expect(await me(admin)).toEqual(acting);

    const status = async (url: string) =>
      (await test.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } })).statusCode;
    expect(await status('/api/test/admin-only')).toBe(403);
    expect(await status(`/api/test/congregations/${congregationA}`)).toBe(200);
    expect(await status(`/api/test/congregations/${congregationB}`)).toBe(403);

    // Switching straight to another congregation works too.
    expect((await viewAs(admin, { congregation: congregationB })).json()).toMatchObject({ congregation: congregationB });

    const exit = await viewAs(admin, { congregation: null });
    expect(exit.statusCode).toBe(200);
    expect(exit.json()).toEqual({ email: 'admin@example.org', role: 'scanning_admin', congregation: '', is_admin: true });
    expect(await status('/api/test/admin-only')).toBe(200);
  });

  it('belongs to the session, not the user: another session of the same admin is unaffected', async () => {
    const otherTab = await signIn(test.app, 'admin@example.org');
    await viewAs(admin, { congregation: congregationA });
    expect(await me(otherTab)).toMatchObject({ role: 'scanning_admin', congregation: '' });
    await viewAs(admin, { congregation: null });
  });

  it('ends when the user loses is_admin', async () => {
    const temporary = await signIn(test.app, 'temp-admin@example.org', { role: 'scanning_admin', isAdmin: true });
    await viewAs(temporary, { congregation: congregationA });
    await test.db.query(`UPDATE users SET is_admin = false WHERE email = 'temp-admin@example.org'`);
    expect(await me(temporary)).toEqual({
      email: 'temp-admin@example.org',
      role: 'scanning_admin',
      congregation: '',
      is_admin: false,
    });
  });

  it('lets an is_admin coordinator view another congregation and come back to its own', async () => {
    const lead = await signIn(test.app, 'lead@example.org', {
      role: 'study_helper_coordinator',
      congregationId: congregationA,
      isAdmin: true,
    });
    expect((await viewAs(lead, { congregation: congregationB })).json()).toMatchObject({ congregation: congregationB });
    expect((await viewAs(lead, { congregation: null })).json()).toEqual({
      email: 'lead@example.org',
      role: 'study_helper_coordinator',
      congregation: congregationA,
      is_admin: true,
    });
  });
});
