// Ids of the codes the product prints (QR payload {PUBLIC_URL}/api/qr-api/{prefix}/{id} and
// the same text beside it): short, random and easy to type, from an alphabet without the
// look-alikes 0/O and 1/I/L; never database sequence numbers.
import { randomInt } from 'node:crypto';
import { isUniqueViolation, type Database } from './database.js';

export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 31^8 ≈ 8.5e11 ids: collisions stay rare even with millions of printed pages. */
export const CODE_LENGTH = 8;

export type CodePrefix = 't' | 's' | 'p' | 'c';

export function newCodeId(length: number = CODE_LENGTH): string {
  let id = '';
  for (let i = 0; i < length; i += 1) id += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return id;
}

/** Normalises what a person typed (lower case, spaces, dashes) to a code id. */
export function normaliseCodeId(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}

/**
 * Records a new printed code for a target (template, issued sheet page, page, service
 * center) and returns its id; retries on the rare collision.
 */
export async function issuePrintedCode(
  db: Database,
  code: { prefix: CodePrefix; targetId: string; studentId?: string | null },
): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const codeId = newCodeId();
    try {
      // A savepoint, so a collision does not abort a transaction the caller is in.
      await db.transaction((tx) =>
        tx.query('INSERT INTO printed_codes (code_id, prefix, target_id, student_id) VALUES ($1, $2, $3, $4)', [
          codeId,
          code.prefix,
          code.targetId,
          code.studentId ?? null,
        ]),
      );
      return codeId;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('Could not find a free printed code id');
}
