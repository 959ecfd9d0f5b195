// Service centers and their recruiting points, recruiters and contact persons (admin only).
import { describe, expect, it } from 'vitest';
import {
  admin,
  call,
  coordinator,
  daysAgo,
  getJson,
  insertCongregation,
  insertRecruiter,
  insertRecruitingPoint,
  insertServiceCenter,
  useRouteTests,
} from './support';

const t = useRouteTests();
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type ServiceCenter = { id: string; name: string; location: string; country: { iso_code: string; display_name: string }; created_at: string };

describe('GET /api/service_centers', () => {
  it('lists by name with country objects and ISO dates, paged', async () => {
    const me = await admin(t.app);
    const accra = await insertServiceCenter(t.db, 'Accra Center', { country: 'GH', location: 'Accra', createdAt: daysAgo(3) });
    await insertServiceCenter(t.db, 'nairobi Center', { country: 'KE', location: 'Nairobi', createdAt: daysAgo(1) });
    await insertServiceCenter(t.db, 'Manila Office', { country: 'PH', location: 'Quezon City', createdAt: daysAgo(2) });
    const { status, body } = await getJson<Listed<ServiceCenter>>(t.app, me, '/api/service_centers');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, skip: 0, limit: 10 });
    expect(body.items.map((center) => center.name)).toEqual(['Accra Center', 'Manila Office', 'nairobi Center']);
    expect(body.items[0]).toEqual({
      id: accra,
      name: 'Accra Center',
      location: 'Accra',
      country: { iso_code: 'GH', display_name: 'Ghana' },
      created_at: daysAgo(3).toISOString(),
    });
    const page = await getJson<Listed<ServiceCenter>>(t.app, me, '/api/service_centers?skip=1&limit=1');
    expect(page.body).toMatchObject({ total: 3, skip: 1, limit: 1 });
    expect(page.body.items.map((center) => center.name)).toEqual(['Manila Office']);
  });

  it('sorts by name or created_at in either direction', async () => {
    const me = await admin(t.app);
    await insertServiceCenter(t.db, 'B', { createdAt: daysAgo(1) });
    await insertServiceCenter(t.db, 'A', { createdAt: daysAgo(2) });
    await insertServiceCenter(t.db, 'C', { createdAt: daysAgo(3) });
    const names = async (query: string) =>
      (await getJson<Listed<ServiceCenter>>(t.app, me, `/api/service_centers?${query}`)).body.items.map((center) => center.name);
    expect(await names('order_by=name&order_direction=desc')).toEqual(['C', 'B', 'A']);
    expect(await names('order_by=created_at')).toEqual(['B', 'A', 'C']);
    expect(await names('order_by=created_at&order_direction=asc')).toEqual(['C', 'A', 'B']);
    expect((await getJson(t.app, me, '/api/service_centers?order_by=location')).status).toBe(400);
  });

  it('filters by part of the name, case-insensitively', async () => {
    const me = await admin(t.app);
    await insertServiceCenter(t.db, 'Accra Center');
    await insertServiceCenter(t.db, 'Kumasi Center');
    await insertServiceCenter(t.db, 'Manila Office');
    const { body } = await getJson<Listed<ServiceCenter>>(t.app, me, '/api/service_centers?name=CENTER&limit=1');
    expect(body.total).toBe(2);
    expect(body.items.map((center) => center.name)).toEqual(['Accra Center']);
  });

  it('is refused to a coordinator and to anonymous callers', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    expect(await getJson(t.app, await coordinator(t.app, congregation), '/api/service_centers')).toEqual({
      status: 403,
      body: { detail: 'Forbidden' },
    });
    expect((await getJson(t.app, null, '/api/service_centers')).status).toBe(401);
  });
});

describe('POST /api/service_centers', () => {
  it('creates a service center and answers 201 with its id', async () => {
    const me = await admin(t.app);
    const created = await call(t.app, me, 'POST', '/api/service_centers', { name: 'Accra Center', country: 'GH', location: 'Accra' });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    const { status, body } = await getJson<ServiceCenter>(t.app, me, `/api/service_centers/${id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id, name: 'Accra Center', location: 'Accra', country: { iso_code: 'GH', display_name: 'Ghana' } });
  });

  it('refuses a country that is not in the countries table', async () => {
    const me = await admin(t.app);
    const response = await call(t.app, me, 'POST', '/api/service_centers', { name: 'X', country: 'QQ', location: 'Y' });
    expect(response).toMatchObject({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message: 'Unknown country: QQ' } } });
    const { total } = await t.db.one<{ total: number }>('SELECT count(*) AS total FROM service_centers');
    expect(total).toBe(0);
  });

  it('refuses bodies that break the contract', async () => {
    const me = await admin(t.app);
    for (const body of [{ name: 'X', country: 'GH' }, { name: '', country: 'GH', location: 'Y' }, { name: 'X', country: 'gh', location: 'Y' }]) {
      const response = await call(t.app, me, 'POST', '/api/service_centers', body);
      expect(response.status).toBe(400);
      expect((response.body as { detail: { error_type: string } }).detail.error_type).toBe('VALIDATION_ERROR');
    }
  });

  it('is refused to a coordinator', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    const response = await call(t.app, await coordinator(t.app, congregation), 'POST', '/api/service_centers', {
      name: 'X',
      country: 'GH',
      location: 'Y',
    });
    expect(response).toMatchObject({ status: 403, body: { detail: 'Forbidden' } });
  });
});

describe('GET /api/service_centers/{id}', () => {
  it('answers 404 for an unknown service center', async () => {
    const me = await admin(t.app);
    expect(await getJson(t.app, me, `/api/service_centers/${MISSING}`)).toEqual({ status: 404, body: { detail: 'Service center not found' } });
    expect((await getJson(t.app, me, '/api/service_centers/not-a-uuid')).status).toBe(400);
  });
});

describe('recruiting points', () => {
  it('lists, creates, renames and deletes the points of one service center', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const other = await insertServiceCenter(t.db, 'Other Center');
    await insertRecruitingPoint(t.db, other, 'Elsewhere');
    await insertRecruitingPoint(t.db, center, 'Zongo Junction');

    const created = await call(t.app, me, 'POST', `/api/service_centers/${center}/recruiting-points`, {
      name: 'Makola Market',
      location: 'Makola, Accra',
    });
    expect(created.status).toBe(201);
    const point = created.body as { id: string; name: string; location: string };
    expect(point).toMatchObject({ name: 'Makola Market', location: 'Makola, Accra' });
    const noLocation = await call(t.app, me, 'POST', `/api/service_centers/${center}/recruiting-points`, { name: 'Radio' });
    expect(noLocation.body).toMatchObject({ name: 'Radio', location: '' });

    const list = await getJson<Array<{ name: string }>>(t.app, me, `/api/service_centers/${center}/recruiting-points`);
    expect(list.body.map((p) => p.name)).toEqual(['Makola Market', 'Radio', 'Zongo Junction']);

    const renamed = await call(t.app, me, 'PATCH', `/api/service_centers/${center}/recruiting-points/${point.id}`, { name: 'Makola (east)' });
    expect(renamed).toMatchObject({ status: 200, body: { id: point.id, name: 'Makola (east)', location: 'Makola, Accra' } });

    const deleted = await call(t.app, me, 'DELETE', `/api/service_centers/${center}/recruiting-points/${point.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.raw.body).toBe('');
    const after = await getJson<Array<{ name: string }>>(t.app, me, `/api/service_centers/${center}/recruiting-points`);
    expect(after.body.map((p) => p.name)).toEqual(['Radio', 'Zongo Junction']);
  });

  it("answers 404 for an unknown center, an unknown point, or another center's point", async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const other = await insertServiceCenter(t.db, 'Other Center');
    const foreign = await insertRecruitingPoint(t.db, other, 'Elsewhere');
    const centerMissing = { status: 404, body: { detail: 'Service center not found' } };
    const pointMissing = { status: 404, body: { detail: 'Recruiting point not found' } };
    expect(await getJson(t.app, me, `/api/service_centers/${MISSING}/recruiting-points`)).toEqual(centerMissing);
    expect(await call(t.app, me, 'POST', `/api/service_centers/${MISSING}/recruiting-points`, { name: 'X' })).toMatchObject(centerMissing);
    expect(await call(t.app, me, 'PATCH', `/api/service_centers/${center}/recruiting-points/${foreign}`, { name: 'X' })).toMatchObject(
      pointMissing,
    );
    expect(await call(t.app, me, 'DELETE', `/api/service_centers/${center}/recruiting-points/${foreign}`)).toMatchObject(pointMissing);
    expect(await call(t.app, me, 'DELETE', `/api/service_centers/${center}/recruiting-points/${MISSING}`)).toMatchObject(pointMissing);
    const kept = await t.db.one<{ name: string }>('SELECT name FROM recruiting_points WHERE id = $1', [foreign]);
    expect(kept.name).toBe('Elsewhere');
  });

  it('validates the rename body', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const point = await insertRecruitingPoint(t.db, center, 'Makola');
    const response = await call(t.app, me, 'PATCH', `/api/service_centers/${center}/recruiting-points/${point}`, { location: 'x' });
    expect(response.status).toBe(400);
  });
});

describe('recruiters and contact persons', () => {
  it('lists and creates the recruiters of one service center', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const other = await insertServiceCenter(t.db, 'Other Center');
    await insertRecruiter(t.db, other, 'Somebody Else');
    const created = await call(t.app, me, 'POST', `/api/service-centers/${center}/recruiters`, { name: 'Ama Owusu', contact_info: '+233 20' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Ama Owusu', contact_info: '+233 20' });
    const bare = await call(t.app, me, 'POST', `/api/service-centers/${center}/recruiters`, { name: 'Kofi' });
    expect(bare.body).toMatchObject({ name: 'Kofi', contact_info: '' });
    const list = await getJson<Array<{ name: string }>>(t.app, me, `/api/service-centers/${center}/recruiters`);
    expect(list.body.map((r) => r.name)).toEqual(['Ama Owusu', 'Kofi']);
  });

  it('lists and creates the contact persons of one service center', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const created = await call(t.app, me, 'POST', `/api/service-centers/${center}/contact-person`, { name: 'Yaw Boateng' });
    expect(created.status).toBe(201);
    const person = created.body as { id: string; name: string };
    expect(person.name).toBe('Yaw Boateng');
    await call(t.app, me, 'POST', `/api/service-centers/${center}/contact-person`, { name: 'Esi' });
    const list = await getJson(t.app, me, `/api/service-centers/${center}/contact-persons`);
    expect(list.body).toEqual([expect.objectContaining({ name: 'Esi' }), { id: person.id, name: 'Yaw Boateng' }]);
    const other = await insertServiceCenter(t.db, 'Other Center');
    expect((await getJson(t.app, me, `/api/service-centers/${other}/contact-persons`)).body).toEqual([]);
  });

  it('answers 404 for an unknown service center', async () => {
    const me = await admin(t.app);
    const missing = { status: 404, body: { detail: 'Service center not found' } };
    expect(await getJson(t.app, me, `/api/service-centers/${MISSING}/recruiters`)).toEqual(missing);
    expect(await call(t.app, me, 'POST', `/api/service-centers/${MISSING}/recruiters`, { name: 'X' })).toMatchObject(missing);
    expect(await getJson(t.app, me, `/api/service-centers/${MISSING}/contact-persons`)).toEqual(missing);
    expect(await call(t.app, me, 'POST', `/api/service-centers/${MISSING}/contact-person`, { name: 'X' })).toMatchObject(missing);
  });

  it('is refused to a coordinator', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const me = await coordinator(t.app, congregation);
    expect((await getJson(t.app, me, `/api/service-centers/${center}/recruiters`)).status).toBe(403);
    expect((await call(t.app, me, 'POST', `/api/service-centers/${center}/contact-person`, { name: 'X' })).status).toBe(403);
    expect((await call(t.app, me, 'POST', `/api/service_centers/${center}/recruiting-points`, { name: 'X' })).status).toBe(403);
  });
});

describe('one name once per service center', () => {
  const conflict = (message: string) => ({ status: 409, body: { detail: { error_type: 'CONFLICT', message } } });

  it('refuses a second recruiting point, recruiter or contact person of the same name, case and spaces aside', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const other = await insertServiceCenter(t.db, 'Other Center');
    const points = `/api/service_centers/${center}/recruiting-points`;
    expect((await call(t.app, me, 'POST', points, { name: 'Makola stand', location: 'Accra' })).status).toBe(201);
    expect(await call(t.app, me, 'POST', points, { name: '  makola STAND ', location: 'Elsewhere' })).toMatchObject(
      conflict('This service center already has a recruiting point named "makola STAND".'),
    );
    const recruiters = `/api/service-centers/${center}/recruiters`;
    expect((await call(t.app, me, 'POST', recruiters, { name: 'Ama Owusu' })).status).toBe(201);
    expect(await call(t.app, me, 'POST', recruiters, { name: 'Ama Owusu', contact_info: 'x' })).toMatchObject(
      conflict('This service center already has a recruiter named "Ama Owusu".'),
    );
    const people = `/api/service-centers/${center}/contact-person`;
    expect((await call(t.app, me, 'POST', people, { name: 'Yaw Boateng' })).status).toBe(201);
    expect(await call(t.app, me, 'POST', people, { name: 'yaw boateng' })).toMatchObject(
      conflict('This service center already has a contact person named "yaw boateng".'),
    );
    // Nothing was added by the refused calls.
    expect((await getJson<unknown[]>(t.app, me, points)).body).toHaveLength(1);
    expect((await getJson<unknown[]>(t.app, me, `/api/service-centers/${center}/recruiters`)).body).toHaveLength(1);
    expect((await getJson<unknown[]>(t.app, me, `/api/service-centers/${center}/contact-persons`)).body).toHaveLength(1);
    // Another center may use the same names.
    expect((await call(t.app, me, 'POST', `/api/service_centers/${other}/recruiting-points`, { name: 'Makola stand' })).status).toBe(201);
    expect((await call(t.app, me, 'POST', `/api/service-centers/${other}/recruiters`, { name: 'Ama Owusu' })).status).toBe(201);
    expect((await call(t.app, me, 'POST', `/api/service-centers/${other}/contact-person`, { name: 'Yaw Boateng' })).status).toBe(201);
  });

  it('refuses renaming a recruiting point to another one\'s name, and allows keeping its own', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const makola = await insertRecruitingPoint(t.db, center, 'Makola stand');
    await insertRecruitingPoint(t.db, center, 'Kaneshie stand');
    const rename = (name: string) => call(t.app, me, 'PATCH', `/api/service_centers/${center}/recruiting-points/${makola}`, { name });
    expect(await rename('Kaneshie Stand')).toMatchObject(conflict('This service center already has a recruiting point named "Kaneshie Stand".'));
    expect((await rename('MAKOLA stand')).status).toBe(200);
  });
});
