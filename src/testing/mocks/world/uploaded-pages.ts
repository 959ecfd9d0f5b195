// The mock server's check of the contract's UploadedPages (the field `file`, repeated): one PDF,
// or 1 to 50 photos of pages (JPEG, PNG, HEIC/HEIF) and nothing else, at most 1.5 GB in all. A
// refusal says why, as the server does (400 VALIDATION_ERROR with a reason).
import { MAX_PHOTOS_PER_UPLOAD, MAX_UPLOAD_BYTES, PHOTO_EXTENSIONS, PHOTO_TYPES } from '../../../../machines/constants';

export type UploadedPages = { kind: 'pdf'; file: File } | { kind: 'photos'; photos: File[] };

const untyped = (file: File) => file.type === '' || file.type === 'application/octet-stream';
const isPdf = (file: File) => file.type === 'application/pdf' || (untyped(file) && /\.pdf$/i.test(file.name));
const isPhoto = (file: File) =>
  PHOTO_TYPES.includes(file.type.toLowerCase()) || (untyped(file) && PHOTO_EXTENSIONS.some((extension) => file.name.toLowerCase().endsWith(extension)));

/** The pages of a multipart upload, or the reason it is refused. */
export function uploadedPages(form: FormData): UploadedPages | { refused: string } {
  const files = form.getAll('file').filter((value): value is File => typeof value !== 'string');
  if (files.length === 0) return { refused: 'A file and its name are required.' };
  const neither = files.findIndex((file) => !isPdf(file) && !isPhoto(file));
  if (neither >= 0) return { refused: `File ${neither + 1} (${files[neither]!.name}) is neither a PDF nor a photo (JPEG, PNG or HEIC).` };
  if (files.length === 1 && isPdf(files[0]!)) return { kind: 'pdf', file: files[0]! };
  if (files.some(isPdf)) return { refused: 'A PDF cannot go with other files: send one PDF, or only photos.' };
  if (files.length > MAX_PHOTOS_PER_UPLOAD) return { refused: `At most ${MAX_PHOTOS_PER_UPLOAD} photos in one upload; ${files.length} were sent.` };
  if (files.reduce((sum, file) => sum + file.size, 0) > MAX_UPLOAD_BYTES) return { refused: 'The photos are over 1.5 GB in all.' };
  return { kind: 'photos', photos: files };
}
