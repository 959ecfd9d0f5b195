// The uploads tag's list and reports (spec §7 "Uploads"): graded-packet uploads and, for an admin,
// the service centers' files, each with what became of its pages; withdrawing a graded upload.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getGetUploadMockHandler,
  getGetUploadPageImageMockHandler,
  getListUploadsMockHandler,
  getWithdrawUploadMockHandler,
} from '../../../../../generated/hooks/uploads/uploads.msw';
import { fileUpload } from '../file-upload-report';
import { answer, forbidden, notFound, paged, refusal, sorted, type WorldAccess } from '../http';
import { tick, type UploadRow } from '../world';

type S = components['schemas'];

function uploadHead({ id, name, created_at, process_status, is_intro }: UploadRow) {
  return { id, name, created_at, kind: 'graded' as const, process_status, is_intro };
}

/** A mock upload's pages: a few, all matched, counted from its name so they never change. */
function uploadSummary(upload: UploadRow): S['UploadSummary'] {
  const pages = upload.pages ?? 2 + (upload.name.length % 5);
  return { pages_read: pages, matched: pages, not_matched: 0, blank_dropped: 0 };
}

/** A graded upload's report: every page went through (the world keeps no scans to match). */
function gradedUploadReport(upload: UploadRow): S['UploadReport'] {
  const summary = uploadSummary(upload);
  return {
    ...uploadHead(upload),
    failure_reason: null,
    summary,
    pages: Array.from({ length: summary.pages_read }, (_, index) => ({
      page_number: index + 1,
      result: 'matched' as const,
      reason: null,
      kept: true,
      detail: null,
      code: null,
      file: null,
      answer_sheet: null,
      has_image: false,
    })),
  };
}

export function uploadResponders({ world, viewer }: WorldAccess): HttpHandler[] {
  return [
    answer(getListUploadsMockHandler, ({ request }) => {
      const url = new URL(request.url);
      const group = viewer() ?? url.searchParams.get('group_id');
      const graded = world()
        .uploads.filter((upload) => group === null || upload.congregationId === group)
        .map((upload) => ({ ...uploadHead(upload), summary: uploadSummary(upload) }));
      // An admin's whole list holds the service centers' files too (as the server).
      const files = group === null ? world().files.map((file) => fileUpload(world(), file).head) : [];
      const page = paged(url, sorted(url, [...graded, ...files], { name: (upload) => upload.name.toLowerCase(), created_at: (upload) => upload.created_at }, 'created_at', 'desc'));
      return { ...page, items: page.items };
    }),
    answer(getGetUploadMockHandler, ({ params }) => {
      const file = viewer() === null ? world().files.find((row) => row.id === params.id) : undefined;
      if (file) return fileUpload(world(), file).report;
      const upload = world().uploads.find((row) => row.id === params.id && (viewer() === null || row.congregationId === viewer()));
      return upload ? gradedUploadReport(upload) : notFound('Upload not found');
    }),
    answer(getGetUploadPageImageMockHandler, () => notFound('This page has no image')),
    answer(getWithdrawUploadMockHandler, ({ params }) => {
      const upload = world().uploads.find((row) => row.id === params.id);
      if (!upload) return notFound('Upload not found');
      if (viewer() !== null && upload.congregationId !== viewer()) return forbidden();
      if (upload.process_status === 'pending') return refusal(409, 'CONFLICT', 'This upload is still being read; it can be withdrawn once it is done.');
      world().uploads = world().uploads.filter((row) => row.id !== upload.id);
      tick(world());
    }),
  ];
}
