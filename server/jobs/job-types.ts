// The runner's limits (leases, attempts, sweeps), and limits of the scan pipeline that are not
// spec constants. Job names and progress: server/workflow/job-progress.ts.

/** Spec §5/§9: maximum upload size, 1.5 GB. */
export const MAX_UPLOAD_BYTES = 1_500_000_000;

/** Code kinds a service-center upload carries: sheet pages (t, s) and cover sheets (c). */
export const SERVICE_CENTER_CODE_PREFIXES = ['t', 's', 'c'] as const;

/**
 * A worker holds a job's target (server/jobs/leased-job.ts) for this long and renews it
 * LEASE_RENEWALS_PER_LEASE times per lease while it works; a dead worker's job is picked up by
 * the next recovery sweep once its lease has run out: within lease + sweep + a poll, 17 s.
 */
export const LEASE_SECONDS = 10;
/** Renewals per lease: a worker may miss several (a slow database) before it loses its lease. */
export const LEASE_RENEWALS_PER_LEASE = 5;
/** A job whose target crashed this many workers is given up (failed) instead of being retried again. */
export const MAX_PROCESSING_ATTEMPTS = 5;
/** How often each worker looks for work whose worker stopped (crash, restart): half a lease. */
export const RECOVERY_SWEEP_SECONDS = 5;
/**
 * Uploads (service-center files, graded uploads) one process reads at once, per kind: a small
 * one passes a large one (they take turns on the process's page workers, server/pipeline/page-pool.ts).
 */
export const FILES_AT_ONCE = 3;

/** How often a lease of `seconds` is renewed. */
export function leaseRenewalMs(seconds: number): number {
  return Math.max(100, (seconds * 1000) / LEASE_RENEWALS_PER_LEASE);
}
/** Thumbnail widths of spec §9 (500 for lists, 1000 for page items). */
export const THUMBNAIL_WIDTHS = [500, 1000] as const;
export const THUMBNAIL_QUALITY = 78;
/** Page images and thumbnails never change once made (content-addressed): cache a day. */
export const IMAGE_CACHE_CONTROL = 'private, max-age=86400';
