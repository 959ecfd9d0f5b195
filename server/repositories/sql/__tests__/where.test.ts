import { describe, expect, it } from 'vitest';
import { humanIdRanges } from '../where';

describe('humanIdRanges', () => {
  it('turns the first digits of an ID into the ranges of IDs that start with them', () => {
    const ranges = humanIdRanges('45');
    expect(ranges.slice(0, 3)).toEqual([
      { lo: '45', hi: '45' },
      { lo: '450', hi: '459' },
      { lo: '4500', hi: '4599' },
    ]);
    // Up to the largest bigint, which caps the last range.
    expect(ranges.at(-1)).toEqual({ lo: '4500000000000000000', hi: '4599999999999999999' });
    expect(humanIdRanges('9').at(-1)).toEqual({ lo: '9000000000000000000', hi: '9223372036854775807' });
    expect(humanIdRanges('123456789012')[0]).toEqual({ lo: '123456789012', hi: '123456789012' });
  });

  it('matches what the digits match as text: no ID starts with a zero but 0 itself', () => {
    expect(humanIdRanges('0')).toEqual([{ lo: '0', hi: '0' }]);
    expect(humanIdRanges('05')).toEqual([]);
    const asText = (id: bigint, digits: string) => String(id).startsWith(digits);
    const inRanges = (id: bigint, digits: string) => humanIdRanges(digits).some((r) => BigInt(r.lo) <= id && id <= BigInt(r.hi));
    for (const digits of ['1', '10', '45', '999', '1002']) {
      for (const id of [1n, 9n, 10n, 45n, 99n, 100n, 450n, 999n, 1001n, 1002n, 4599n, 10020n, 100200n, 1002999n]) {
        expect(inRanges(id, digits)).toBe(asText(id, digits));
      }
    }
  });
});
