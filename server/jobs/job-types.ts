// The background jobs of the product, named as the progress calls name them (contract JobType),
// and the limits of the scan pipeline that are not spec constants.
import type { Schemas } from '../contract/types';

export type JobType = Schemas['JobType'];

export const JOB = {
  processServiceCenterUpload: 'process_service_center_upload',
  sendToStudyHelpers: 'send_to_study_helpers',
  generateReturnFile: 'generate_return_file_requested',
  processStudyHelperUpload: 'process_study_helper_upload',
} as const satisfies Record<string, JobType>;

/** Spec §5/§9: maximum upload size, 1.5 GB. */
export const MAX_UPLOAD_BYTES = 1_500_000_000;

/** Code kinds a service-center upload carries: sheet pages (t, s) and cover sheets (c). */
export const SERVICE_CENTER_CODE_PREFIXES = ['t', 's', 'c'] as const;

/**
 * A worker holds a file for this long and renews it while it works; a crashed worker's file is
 * picked up again once its lease has run out.
 */
export const PROCESSING_LEASE_SECONDS = 60;
/** A file that crashed this many workers is failed instead of being retried again. */
export const MAX_PROCESSING_ATTEMPTS = 5;
/** How often each worker looks for files whose processing stopped (crash, restart). */
export const RECOVERY_SWEEP_SECONDS = 30;
/** Progress streams re-read job_progress this often (works across server processes). */
export const PROGRESS_POLL_MS = 250;
/** Thumbnail widths of spec §9 (500 for lists, 1000 for page items). */
export const THUMBNAIL_WIDTHS = [500, 1000] as const;
export const THUMBNAIL_QUALITY = 78;
/** Page images and thumbnails never change once made (content-addressed): cache a day. */
export const IMAGE_CACHE_CONTROL = 'private, max-age=86400';
