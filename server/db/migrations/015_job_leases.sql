-- One lease table for every job (server/jobs/leased-job.ts): who holds a job's target, until
-- when, and how many times a worker took it since it last finished. Uploaded files kept their
-- lease in columns of `files`; the workflow's jobs had `workflow_leases`. Both move here.

ALTER TABLE workflow_leases RENAME TO job_leases;
ALTER INDEX workflow_leases_pkey RENAME TO job_leases_pkey;
-- A finished job keeps its row without holder (token and lease_until NULL), so its attempts stay
-- readable; the next take counts from 1 again.
ALTER TABLE job_leases ALTER COLUMN token DROP NOT NULL, ALTER COLUMN lease_until DROP NOT NULL;
ALTER TABLE job_leases ADD CONSTRAINT job_leases_holder_check CHECK ((token IS NULL) = (lease_until IS NULL));

-- Files still being processed bring their lease (a lease handed back had no end: it has run out).
INSERT INTO job_leases (job, target_id, token, lease_until, attempts)
SELECT 'process_service_center_upload', id,
       COALESCE(processing_lease_token, 'migrated'),
       COALESCE(processing_lease_until, now() - interval '1 second'),
       processing_attempts
FROM files
WHERE process_status = 'pending' AND (processing_attempts > 0 OR processing_lease_token IS NOT NULL)
ON CONFLICT (job, target_id) DO NOTHING;

DROP INDEX files_pending_lease_idx;
ALTER TABLE files
  DROP COLUMN processing_lease_token,
  DROP COLUMN processing_lease_until,
  DROP COLUMN processing_attempts;
-- The recovery sweep and the server's start look for pending files.
CREATE INDEX files_pending_idx ON files (created_at) WHERE process_status = 'pending';
