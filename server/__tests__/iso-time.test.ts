import { describe, expect, it } from 'vitest';
import { iso } from '../iso-time';

const expectSameAsToISOString = (time: number) =>
  expect(iso(new Date(time))).toBe(new Date(time).toISOString());

describe('iso', () => {
  it('writes what toISOString writes, over the whole range of four-digit years', () => {
    // A fixed sequence (no Math.random): the same times on every run.
    let state = 0x2545f491;
    const next = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 2 ** 32;
    };
    const first = new Date('0000-01-01T00:00:00.000Z').getTime();
    const last = new Date('9999-12-31T23:59:59.999Z').getTime();
    for (let i = 0; i < 200_000; i++)
      expectSameAsToISOString(Math.floor(first + next() * (last - first)));
  });

  it('at the edges of days, months and years, leap days and centuries included', () => {
    for (let year = 1895; year <= 2105; year++) {
      for (let month = 0; month < 12; month++) {
        const start = Date.UTC(year, month, 1);
        for (const delta of [-1, 0, 1, 999, 1000, 59_999, 3_599_999])
          expectSameAsToISOString(start + delta);
      }
      expectSameAsToISOString(Date.UTC(year, 1, 28, 23, 59, 59, 999));
      expectSameAsToISOString(Date.UTC(year, 1, 29));
    }
    for (const text of [
      '0000-01-01T00:00:00.000Z',
      '1600-02-29T12:00:00.000Z',
      '1970-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '2000-02-29T00:00:00.001Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      expect(iso(new Date(text))).toBe(text);
    }
  });

  it('takes text and numbers as new Date does, and leaves other years and invalid times to toISOString', () => {
    expect(iso('2026-11-25 22:24:32.123+01')).toBe('2026-11-25T21:24:32.123Z');
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(iso(new Date('-000001-12-31T23:59:59.999Z'))).toBe('-000001-12-31T23:59:59.999Z');
    expect(iso(new Date('+010000-01-01T00:00:00.000Z'))).toBe('+010000-01-01T00:00:00.000Z');
    expect(() => iso('not a date')).toThrow(RangeError);
  });
});
