// The check character printed after each short code (P-ABCD2345-R): text read back from paper
// identifies a page only when it is right, and codes printed before it keep reading.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODE_ID_ALPHABET, CODE_ID_LENGTH, CODE_PREFIXES, checkCharacter, codeText, readCodeText, type Code } from '../codes';

const codeArbitrary: fc.Arbitrary<Code> = fc.record({
  prefix: fc.constantFrom(...CODE_PREFIXES),
  id: fc.string({ unit: fc.constantFrom(...CODE_ID_ALPHABET), minLength: CODE_ID_LENGTH, maxLength: CODE_ID_LENGTH }),
});

describe('check character', () => {
  it('is the weighted sum of prefix and id over the 31 letters, worked by hand', () => {
    // P A B C D 2 3 4 5 are letters 20 8 9 10 11 0 1 2 3; weights 1..9: 208 = 6*31 + 22, and letter 22 is R.
    expect(checkCharacter({ prefix: 'p', id: 'ABCD2345' })).toBe('R');
    expect(codeText({ prefix: 'p', id: 'ABCD2345' })).toBe('P-ABCD2345-R');
  });

  it('reads what it prints, as checked', () => {
    fc.assert(
      fc.property(codeArbitrary, (code) => {
        expect(readCodeText(codeText(code))).toEqual({ code, reason: null, checked: true });
      }),
    );
  });

  it('still reads codes printed before check characters, as not checked', () => {
    fc.assert(
      fc.property(codeArbitrary, (code) => {
        expect(readCodeText(`${code.prefix.toUpperCase()}-${code.id}`)).toEqual({ code, reason: null, checked: false });
      }),
    );
  });

  it('refuses any one character of the id misread', () => {
    fc.assert(
      fc.property(codeArbitrary, fc.nat(CODE_ID_LENGTH - 1), fc.constantFrom(...CODE_ID_ALPHABET), (code, at, letter) => {
        fc.pre(code.id[at] !== letter);
        const misread = { ...code, id: code.id.slice(0, at) + letter + code.id.slice(at + 1) };
        expect(readCodeText(`${misread.prefix}-${misread.id}-${checkCharacter(code)}`)).toEqual({ code: null, reason: 'bad_check' });
      }),
    );
  });

  it('refuses two characters of the id swapped', () => {
    fc.assert(
      fc.property(codeArbitrary, fc.nat(CODE_ID_LENGTH - 1), fc.nat(CODE_ID_LENGTH - 1), (code, a, b) => {
        fc.pre(code.id[a] !== code.id[b]);
        const chars = [...code.id];
        [chars[a], chars[b]] = [chars[b]!, chars[a]!];
        expect(readCodeText(`${code.prefix}-${chars.join('')}-${checkCharacter(code)}`)).toEqual({ code: null, reason: 'bad_check' });
      }),
    );
  });

  it('refuses a wrong check character, and one read under a prefix it was not printed with', () => {
    fc.assert(
      fc.property(codeArbitrary, fc.constantFrom(...CODE_ID_ALPHABET), fc.constantFrom(...CODE_PREFIXES), (code, check, prefix) => {
        fc.pre(check !== checkCharacter(code));
        expect(readCodeText(`${code.prefix}-${code.id}-${check}`).code).toBeNull();
        fc.pre(prefix !== code.prefix);
        expect(readCodeText(`${prefix}-${code.id}-${checkCharacter(code)}`).code).toBeNull();
      }),
    );
  });
});
