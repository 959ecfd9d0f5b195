// The files tag, a service center's upload (POST /file, spec §7 "Files"): a PDF or photos of its
// pages under a new name; the file joins the world pending, and its processing job starts.
import type { HttpHandler } from 'msw';
import { getUploadFileMockHandler } from '../../../../../generated/hooks/files/files.msw';
import { answer, refusal, type WorldAccess } from '../http';
import { uploadedPages } from '../uploaded-pages';
import { iso, newId, tick, type FileRow, type World } from '../world';

/** A service center's file as POST /file sends it, or why it is refused. */
async function uploadedFile(world: World, request: Request): Promise<FileRow | Response> {
  const form = await request.formData();
  const name = String(form.get('name') ?? '').trim();
  const pages = uploadedPages(form);
  if (name === '') return refusal(400, 'VALIDATION_ERROR', 'A file and its name are required.');
  if ('refused' in pages) return refusal(400, 'VALIDATION_ERROR', pages.refused);
  if (world.files.some((file) => file.name === name)) return refusal(409, 'DUPLICATE_FILE', 'This file has already been uploaded.');
  const length = Number(form.get('answer_sheet_page_length') ?? 0);
  const uploadedAt = tick(world);
  const scanned = String(form.get('scanned_at') ?? '');
  return {
    id: newId(world, 'file'),
    name,
    process_status: 'pending',
    failure_reason: null,
    file_status: null,
    printed: false,
    answer_sheet_page_length: length === 1 || length === 2 ? length : 0,
    serviceCenterId: null,
    recruitingPointId: null,
    recruiterId: null,
    contactPersonId: null,
    scanned_at: Number.isNaN(Date.parse(scanned)) ? null : iso(Date.parse(scanned)),
    uploaded_at: uploadedAt,
    sent_at: null,
    prepped: false,
  };
}

export function fileUploadResponders({ world }: WorldAccess): HttpHandler[] {
  return [
    answer(getUploadFileMockHandler, async ({ request }) => {
      const file = await uploadedFile(world(), request);
      if (file instanceof Response) return file;
      world().files.unshift(file);
      world().runningJobs.push(`process_service_center_upload/${file.id}`);
      return { id: file.id };
    }),
  ];
}
