import { describe, expect, it } from 'vitest';
import { isValidWbsCode } from '../wbs-code';

describe('isValidWbsCode', () => {
  it.each(['US 1234', 'GH 12345', 'ABC 12', 'NG 000', 'ZA 1'.padEnd(6, '9')])('accepts %j', (code) => {
    expect(isValidWbsCode(code)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['US 12', 'five characters'],
    ['US123456', 'no space'],
    ['US 12 34', 'two spaces'],
    ['US  1234', 'two spaces together'],
    [' US1234', 'space first'],
    ['U S1234', 'space second'],
    ['US\t1234', 'a tab is not a space'],
  ])('rejects %j (%s)', (code) => {
    expect(isValidWbsCode(code)).toBe(false);
  });

  it('counts the length strictly above 5', () => {
    expect(isValidWbsCode('AB 123')).toBe(true);
    expect(isValidWbsCode('AB 12')).toBe(false);
  });
});
