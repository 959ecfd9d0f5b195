// Why a page has no usable code: the reader's reasons and a photo's own. The split, the matching
// of graded pages and the upload report all decide by them, so they live with those rules.

/** Why a page has no usable code. */
export type PageReason =
  /** Nothing that looks like a QR code. */
  | 'no_code_found'
  /** A QR symbol was located but could not be decoded (damaged, blurred, covered). */
  | 'unreadable'
  /** A QR code was read, but its text is not one of the product's codes. */
  | 'unknown_code'
  /** The page was not read at all: reading it went past a time or memory limit (page-pool). */
  | 'too_complex'
  /** One of the product's codes, of a kind not expected here (e.g. a `p` code in a service-center upload). */
  | 'other_kind'
  /** A photo of a page (photo-page): no sheet of paper found in it, and no code read. */
  | 'no_sheet'
  /** A photo of a page: the sheet found, too blurred for its code to read. */
  | 'too_blurred';

/** Why a photographed page without a code could not be read, if the photo says why. */
export type PhotoReason = 'no_sheet' | 'too_blurred';

export const PHOTO_REASONS: readonly PhotoReason[] = ['no_sheet', 'too_blurred'];

export function isPhotoReason(reason: string | null | undefined): reason is PhotoReason {
  return reason === 'no_sheet' || reason === 'too_blurred';
}
