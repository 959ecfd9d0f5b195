// The codes printed on every page the product generates, and how text read back from paper
// (a QR payload, or the short code a person types) becomes a code again.
// A payload is a URL so that a phone scanning it lands somewhere useful; it is recognised by its
// path alone so that paper printed under an old domain keeps working.
import { randomInt } from 'node:crypto';

export const CODE_PREFIXES = ['t', 's', 'p', 'c'] as const;
/** t: course page template, s: issued sheet page, p: received answer-sheet page, c: service center. */
export type CodePrefix = (typeof CODE_PREFIXES)[number];

export interface Code {
  prefix: CodePrefix;
  id: string;
}

/** No 0/O, 1/I/L: a person can type the short code without guessing. */
export const CODE_ID_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const CODE_ID_LENGTH = 8;
export const QR_API_PATH = '/api/qr-api';

export type CodeTextRejection =
  /** Neither a `/api/qr-api/{prefix}/{id}` URL or path nor the short `P-ABCD2345` form. */
  | 'unknown_format'
  /** Has the code shape but a prefix the product never prints. */
  | 'unknown_prefix'
  /** Has the code shape but the id is not made of the code alphabet at the code length. */
  | 'bad_id'
  /** Carries a check character, and it is not the code's: a character was misread or mistyped. */
  | 'bad_check';

export type CodeTextReading =
  /** `checked`: the text carried the code's check character (codes printed before it carry none). */
  { code: Code; reason: null; checked: boolean } | { code: null; reason: CodeTextRejection };

export function isCodePrefix(value: string): value is CodePrefix {
  return (CODE_PREFIXES as readonly string[]).includes(value);
}

/** A new random id; `pick(n)` returns an integer in [0, n) and is injectable for seeded fixtures. */
export function newCodeId(pick: (n: number) => number = (n) => randomInt(n)): string {
  let id = '';
  for (let i = 0; i < CODE_ID_LENGTH; i++) id += CODE_ID_ALPHABET[pick(CODE_ID_ALPHABET.length)];
  return id;
}

export function newCode(prefix: CodePrefix, pick?: (n: number) => number): Code {
  return { prefix, id: newCodeId(pick) };
}

/** The QR payload: `${publicUrl}/api/qr-api/${prefix}/${id}` (a trailing slash on publicUrl is dropped). */
export function codeUrl(publicUrl: string, code: Code): string {
  return `${publicUrl.replace(/\/+$/, '')}${QR_API_PATH}/${code.prefix}/${code.id}`;
}

/**
 * The short text printed beside each QR, e.g. `P-ABCD2345-K`: the id and its check character, so
 * that text read back from paper (by OCR or a person) is known to be the code printed, not a near
 * miss. Paper printed before the check character (`P-ABCD2345`) still reads (readCodeText).
 */
export function codeText(code: Code): string {
  return `${code.prefix.toUpperCase()}-${code.id}-${checkCharacter(code)}`;
}

/** The code as a person types it, without its check character, e.g. `T-ABCD2345`. */
export function codeIdText(code: Code): string {
  return `${code.prefix.toUpperCase()}-${code.id}`;
}

/**
 * The check character of a code: a weighted sum of prefix and id over the code alphabet, modulo
 * its 31 letters. 31 is prime and the weights 1..9 differ, so any one character misread and any two
 * characters swapped change it.
 */
export function checkCharacter(code: Code): string {
  const symbols = code.prefix.toUpperCase() + code.id;
  let sum = 0;
  for (let i = 0; i < symbols.length; i++) {
    // Ids outside the alphabet are never printed by the product, but old seeds hold some: still a character.
    const index = CODE_ID_ALPHABET.indexOf(symbols[i]!);
    sum += (i + 1) * (index >= 0 ? index : symbols.charCodeAt(i) % CODE_ID_ALPHABET.length);
  }
  return CODE_ID_ALPHABET[sum % CODE_ID_ALPHABET.length]!;
}

export function isValidCodeId(id: string): boolean {
  if (id.length !== CODE_ID_LENGTH) return false;
  for (const ch of id) if (!CODE_ID_ALPHABET.includes(ch)) return false;
  return true;
}

// Any scheme and host (or none), any base path before /api/qr-api, optional trailing slash,
// query or fragment: only the path identifies the code.
const URL_FORM =
  /^(?:[a-z][a-z0-9+.-]*:\/\/[^/\s?#]+)?(?:\/[^\s?#]*)?\/api\/qr-api\/([A-Za-z])\/([A-Za-z0-9]+)\/?(?:[?#]\S*)?$/i;
// Typed by a person: `P-ABCD2345-K`, also `P-ABCD2345` (printed before check characters),
// `p ABCD2345 k`, `pABCD2345K` or lower case.
const SHORT_FORM = new RegExp(`^([A-Za-z])[\\s_-]?([A-Za-z0-9]{${CODE_ID_LENGTH}})(?:[\\s_-]?([A-Za-z0-9]))?$`);

function readParts(prefixRaw: string, idRaw: string, check?: string): CodeTextReading {
  const prefix = prefixRaw.toLowerCase();
  if (!isCodePrefix(prefix)) return { code: null, reason: 'unknown_prefix' };
  const id = idRaw.toUpperCase();
  if (!isValidCodeId(id)) return { code: null, reason: 'bad_id' };
  const code = { prefix, id };
  if (check === undefined) return { code, reason: null, checked: false };
  if (check.toUpperCase() !== checkCharacter(code)) return { code: null, reason: 'bad_check' };
  return { code, reason: null, checked: true };
}

/** Reads a QR payload or a typed short code, and says why when it is not one of ours. */
export function readCodeText(text: string): CodeTextReading {
  const trimmed = text.trim();
  const url = URL_FORM.exec(trimmed);
  if (url) return readParts(url[1]!, url[2]!);
  const short = SHORT_FORM.exec(trimmed);
  if (short) return readParts(short[1]!, short[2]!, short[3]);
  return { code: null, reason: 'unknown_format' };
}

/** The code in `text`, or null when the text is not a code the product printed. */
export function parseCode(text: string): Code | null {
  return readCodeText(text).code;
}

export function sameCode(a: Code | null | undefined, b: Code | null | undefined): boolean {
  return !!a && !!b && a.prefix === b.prefix && a.id === b.id;
}
