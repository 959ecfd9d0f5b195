import { describe, expect, it } from 'vitest';
import {
  CODE_ID_ALPHABET,
  CODE_ID_LENGTH,
  codeText,
  codeUrl,
  isValidCodeId,
  newCode,
  newCodeId,
  parseCode,
  readCodeText,
  sameCode,
} from '../codes';

describe('code ids', () => {
  it('are 8 characters of an alphabet without 0/O, 1/I/L', () => {
    expect(CODE_ID_ALPHABET).not.toMatch(/[01OIL]/);
    expect(new Set(CODE_ID_ALPHABET).size).toBe(CODE_ID_ALPHABET.length);
    for (let i = 0; i < 200; i++) {
      const id = newCodeId();
      expect(id).toHaveLength(CODE_ID_LENGTH);
      expect(isValidCodeId(id)).toBe(true);
    }
  });

  it('are random (no repeats in 2000 draws) and injectable for seeded fixtures', () => {
    expect(new Set(Array.from({ length: 2000 }, () => newCodeId())).size).toBe(2000);
    expect(newCodeId(() => 0)).toBe('22222222');
    expect(newCodeId((n) => n - 1)).toBe('ZZZZZZZZ');
    expect(newCode('c', () => 1)).toEqual({ prefix: 'c', id: '33333333' });
  });
});

describe('codeUrl and codeText', () => {
  it('builds the QR payload from the public URL, dropping a trailing slash', () => {
    expect(codeUrl('https://portal.example.org', { prefix: 't', id: 'ABCD2345' })).toBe(
      'https://portal.example.org/api/qr-api/t/ABCD2345',
    );
    expect(codeUrl('https://portal.example.org/', { prefix: 'p', id: 'ABCD2345' })).toBe(
      'https://portal.example.org/api/qr-api/p/ABCD2345',
    );
  });

  it('prints the short form beside the QR', () => {
    expect(codeText({ prefix: 'p', id: 'ABCD2345' })).toBe('P-ABCD2345-R');
  });
});

describe('parseCode', () => {
  const code = { prefix: 's', id: 'ABCD2345' } as const;

  it.each([
    ['https://portal.example.org/api/qr-api/s/ABCD2345'],
    ['http://old-domain.test:8080/api/qr-api/s/ABCD2345'],
    ['https://example.org/portal/api/qr-api/s/ABCD2345'],
    ['https://portal.example.org/api/qr-api/s/ABCD2345/'],
    ['https://portal.example.org/api/qr-api/s/ABCD2345?from=print#x'],
    ['/api/qr-api/s/ABCD2345'],
    ['  https://portal.example.org/api/qr-api/S/abcd2345  '],
    ['S-ABCD2345'],
    ['s-abcd2345'],
    ['S ABCD2345'],
    ['SABCD2345'],
  ])('reads %j', (text) => {
    expect(parseCode(text)).toEqual(code);
    expect(readCodeText(text)).toEqual({ code, reason: null, checked: false });
  });

  it('round-trips every prefix through the URL and the short text', () => {
    for (const prefix of ['t', 's', 'p', 'c'] as const) {
      const c = { prefix, id: newCodeId() };
      expect(parseCode(codeUrl('https://x.test', c))).toEqual(c);
      expect(parseCode(codeText(c))).toEqual(c);
    }
  });

  it.each([
    ['https://example.com/events/bible-week', 'unknown_format'],
    ['hello world', 'unknown_format'],
    ['', 'unknown_format'],
    ['https://portal.example.org/api/qr-api/s', 'unknown_format'],
    ['https://portal.example.org/api/other/s/ABCD2345', 'unknown_format'],
    ['P-ABCD234', 'unknown_format'],
    ['https://portal.example.org/api/qr-api/x/ABCD2345', 'unknown_prefix'],
    ['X-ABCD2345', 'unknown_prefix'],
    ['https://portal.example.org/api/qr-api/s/ABCD0345', 'bad_id'],
    ['https://portal.example.org/api/qr-api/s/ABCD23456', 'bad_id'],
    ['P-ABCDO345', 'bad_id'],
    ['P-ABCDL345', 'bad_id'],
  ] as const)('rejects %j as %s', (text, reason) => {
    expect(parseCode(text)).toBeNull();
    expect(readCodeText(text)).toEqual({ code: null, reason });
  });
});

describe('sameCode', () => {
  it('compares prefix and id, and is false for missing codes', () => {
    expect(sameCode({ prefix: 't', id: 'ABCD2345' }, { prefix: 't', id: 'ABCD2345' })).toBe(true);
    expect(sameCode({ prefix: 't', id: 'ABCD2345' }, { prefix: 's', id: 'ABCD2345' })).toBe(false);
    expect(sameCode(null, null)).toBe(false);
  });
});
