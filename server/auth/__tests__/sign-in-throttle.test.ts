// Failed sign-ins slow whoever guesses without locking anyone out: a growing, capped delay per
// e-mail over all addresses and per address over all e-mails.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDb } from '../../../tests/helpers/test-db.js';
import { clearSignInFailures, delayAfter, recordSignInFailure, signInDelayMs } from '../sign-in-throttle.js';

describe('the sign-in throttle', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDb({ referenceData: false });
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  beforeEach(async () => {
    await db.query('DELETE FROM sign_in_failures');
  });

  const fail = async (email: string, address: string, times = 1) => {
    for (let i = 0; i < times; i++) await recordSignInFailure(db, email, address);
  };

  it('slows an e-mail past 5 failures, from every address, doubling up to 8 s', async () => {
    await fail('admin@example.org', '203.0.113.9', 4);
    expect(await signInDelayMs(db, 'admin@example.org', '203.0.113.9')).toBe(0);
    await fail('admin@example.org', '203.0.113.9');
    expect(await signInDelayMs(db, 'admin@example.org', '203.0.113.9')).toBe(250);
    // The owner, from the office: the same quarter of a second, no refusal.
    expect(await signInDelayMs(db, 'admin@example.org', '198.51.100.1')).toBe(250);
    // The owner signing in does not wipe out the guesser's count.
    await clearSignInFailures(db, 'admin@example.org', '198.51.100.1');
    expect(await signInDelayMs(db, 'admin@example.org', '203.0.113.9')).toBe(250);
    for (let i = 0; i < 12; i++) await fail('admin@example.org', `203.0.113.${i}`);
    expect(await signInDelayMs(db, 'admin@example.org', '198.51.100.1')).toBe(8000);
    expect([4, 5, 6, 7, 8, 9, 10, 11, 40].map((failures) => delayAfter(failures, 5))).toEqual([0, 250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('slows an address that sprays passwords over 20 e-mails, never refusing it (a shared proxy)', async () => {
    for (let i = 0; i < 19; i++) await fail(`user${i}@example.org`, '203.0.113.50');
    expect(await signInDelayMs(db, 'new@example.org', '203.0.113.50')).toBe(0);
    await fail('user19@example.org', '203.0.113.50');
    expect(await signInDelayMs(db, 'new@example.org', '203.0.113.50')).toBe(250);
    for (let i = 20; i < 200; i++) await fail(`user${i}@example.org`, '203.0.113.50');
    expect(await signInDelayMs(db, 'admin@example.org', '203.0.113.50')).toBe(8000);
    expect(await signInDelayMs(db, 'new@example.org', '198.51.100.1')).toBe(0);
  });

  it('forgets failures older than the window', async () => {
    await fail('admin@example.org', '203.0.113.9', 5);
    await db.query(`UPDATE sign_in_failures SET failed_at = now() - interval '15 minutes 1 second'`);
    expect(await signInDelayMs(db, 'admin@example.org', '203.0.113.9')).toBe(0);
  });
});
