// Downloads that change state (the return file marks the file downloaded, which allows
// Archive; a packet marks the file printed) do so only when the portal itself asks: a
// link on another site (SameSite=Lax sends the session along) just downloads.
import { describe, expect, it } from 'vitest';
import { admin, coordinator, insertCongregation, insertFile, useRouteTests } from './support';

describe('state-changing GET downloads from another site', () => {
  const t = useRouteTests();

  async function world() {
    const congregation = await insertCongregation(t.db, 'XS 1000');
    const fileId = await insertFile(t.db, 'Cross-site file');
    const blob = await t.testApp.blobStore.put(Buffer.from('%PDF-1.4 test'));
    await t.db.query(`UPDATE files SET return_prepped = true, return_blob_key = $2 WHERE id = $1`, [fileId, blob.key]);
    await t.db.query(`INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, 'unprinted')`, [fileId, congregation]);
    const packet = await t.db.one<{ id: string }>(
      'INSERT INTO packets (file_id, congregation_id, page_count, blob_key) VALUES ($1, $2, 1, $3) RETURNING id',
      [fileId, congregation, blob.key],
    );
    return { congregation, fileId, packet: packet.id };
  }

  const fileStatus = async (fileId: string) =>
    (await t.db.one<{ file_status: string | null }>('SELECT file_status FROM files WHERE id = $1', [fileId])).file_status;
  const printedAt = async (fileId: string) =>
    (await t.db.one<{ printed_at: Date | null }>('SELECT printed_at FROM file_congregations WHERE file_id = $1', [fileId])).printed_at;

  it('marks the return file downloaded only for a same-origin request', async () => {
    const { fileId } = await world();
    const who = await admin(t.app);
    const get = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/api/file/${fileId}/graded_pdf`, headers: { cookie: who.cookie, ...headers } });
    const before = await fileStatus(fileId);
    const crossSite: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, {}, { origin: 'https://evil.example' }];
    for (const headers of crossSite) {
      const response = await get(headers);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.toString()).toBe('%PDF-1.4 test');
      expect(await fileStatus(fileId)).toBe(before);
    }
    expect((await get({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect(await fileStatus(fileId)).toBe('downloaded');
  });

  it('marks a packet printed only for a same-origin (or typed) request', async () => {
    const { congregation, fileId, packet } = await world();
    const who = await coordinator(t.app, congregation);
    const get = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/api/study-helpers/distributed-files/${packet}.pdf`, headers: { cookie: who.cookie, ...headers } });
    expect((await get({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(200);
    expect(await printedAt(fileId)).toBeNull();
    expect((await get({ 'sec-fetch-site': 'none' })).statusCode).toBe(200);
    expect(await printedAt(fileId)).not.toBeNull();
  });
});
