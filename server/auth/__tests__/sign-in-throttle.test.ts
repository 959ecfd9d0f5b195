// Failed sign-ins slow whoever guesses without locking the account's owner out: counted per
// e-mail and address, per address, and (as a growing delay) per e-mail over all addresses.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDb } from '../../../tests/helpers/test-db.js';
import { clearSignInFailures, recordSignInFailure, signInDelayMs, signInVerdict } from '../sign-in-throttle.js';

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

  it('refuses an e-mail from the address that failed 5 times, not from elsewhere (there only slowed)', async () => {
    await fail('admin@example.org', '203.0.113.9', 4);
    expect(await signInVerdict(db, 'admin@example.org', '203.0.113.9')).toEqual({ refused: null, delayMs: 0 });
    await fail('admin@example.org', '203.0.113.9');
    expect((await signInVerdict(db, 'admin@example.org', '203.0.113.9')).refused).toBe(
      'Too many failed sign-ins for this e-mail. Try again in 15 minutes.',
    );
    // The owner, from the office: not refused, a quarter of a second's wait.
    expect(await signInVerdict(db, 'admin@example.org', '198.51.100.1')).toEqual({ refused: null, delayMs: 250 });
    // The owner signing in does not wipe out the guesser's count.
    await clearSignInFailures(db, 'admin@example.org', '198.51.100.1');
    expect((await signInVerdict(db, 'admin@example.org', '203.0.113.9')).refused).not.toBeNull();
  });

  it('slows guesses from many addresses more with each failure, up to 8 s, never refusing the owner', async () => {
    for (let i = 0; i < 12; i++) await fail('admin@example.org', `203.0.113.${i}`);
    expect(await signInVerdict(db, 'admin@example.org', '198.51.100.1')).toEqual({ refused: null, delayMs: 8000 });
    expect([4, 5, 6, 7, 8, 9, 10, 11, 40].map(signInDelayMs)).toEqual([0, 250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('refuses an address that sprays one password over 20 e-mails, for every e-mail', async () => {
    for (let i = 0; i < 19; i++) await fail(`user${i}@example.org`, '203.0.113.50');
    expect((await signInVerdict(db, 'new@example.org', '203.0.113.50')).refused).toBeNull();
    await fail('user19@example.org', '203.0.113.50');
    expect((await signInVerdict(db, 'new@example.org', '203.0.113.50')).refused).toBe(
      'Too many failed sign-ins from this network. Try again in 15 minutes.',
    );
    expect((await signInVerdict(db, 'new@example.org', '198.51.100.1')).refused).toBeNull();
  });

  it('forgets failures older than the window', async () => {
    await fail('admin@example.org', '203.0.113.9', 5);
    await db.query(`UPDATE sign_in_failures SET failed_at = now() - interval '15 minutes 1 second'`);
    expect(await signInVerdict(db, 'admin@example.org', '203.0.113.9')).toEqual({ refused: null, delayMs: 0 });
  });
});
