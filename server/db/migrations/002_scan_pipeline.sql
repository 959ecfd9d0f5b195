-- The scan pipeline's bookkeeping: who is processing a file (a lease, so a crashed worker's
-- file is picked up again and two workers never process the same file), why a page could not
-- be read, and the page thumbnails made on first request.

ALTER TABLE files
  ADD COLUMN processing_lease_token text,
  ADD COLUMN processing_lease_until timestamptz,
  -- Times a worker took the file; a file that keeps crashing its workers is failed, not retried forever.
  ADD COLUMN processing_attempts integer NOT NULL DEFAULT 0 CHECK (processing_attempts >= 0);
-- The recovery sweep looks for pending files whose lease ran out.
CREATE INDEX files_pending_lease_idx ON files (processing_lease_until) WHERE process_status = 'pending';

ALTER TABLE pages
  -- The page could not be processed at all (decoder error); its reason is then 'unreadable'.
  ADD COLUMN read_error text,
  ADD COLUMN thumbnail_500_blob_key text,
  ADD COLUMN thumbnail_1000_blob_key text;
-- Deleting a file checks whether another page still uses the same image bytes.
CREATE INDEX pages_image_blob_key_idx ON pages (image_blob_key) WHERE image_blob_key IS NOT NULL;

ALTER TABLE pages
  ADD CONSTRAINT pages_unrecognized_reason_check
  CHECK (unrecognized_reason IS NULL OR unrecognized_reason IN ('no_code_found', 'unreadable', 'unknown_code', 'other_kind'));

-- Duplicate detection looks up earlier sheets of the same student and lesson.
CREATE INDEX answer_sheets_student_lesson_idx ON answer_sheets (student_id, lesson_id, created_at) WHERE student_id IS NOT NULL;
-- /api/progress/{id} finds a run by its id whatever its job type.
CREATE INDEX job_progress_run_idx ON job_progress (run_id, updated_at DESC);
