-- The file workflow after review: sending packets to congregations, graded scans coming back,
-- and the return file. Long jobs hold a lease per (job, target) so a crashed worker's work is
-- taken over once the lease runs out and two workers never build the same PDF at once.

CREATE TABLE workflow_leases (
  job         text NOT NULL,
  target_id   uuid NOT NULL,
  token       text NOT NULL,
  lease_until timestamptz NOT NULL,
  -- Times a worker took the work; work that keeps crashing its workers is failed, not retried forever.
  attempts    integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  PRIMARY KEY (job, target_id)
);

ALTER TABLE files
  -- POST /send accepted (the job then sets sent_at); a second send is refused meanwhile.
  ADD COLUMN send_requested_at   timestamptz,
  -- The return file is wanted (grading complete, or regenerate); cleared by a permanent failure.
  ADD COLUMN return_requested_at timestamptz,
  ADD COLUMN return_blob_key     text,
  ADD COLUMN return_page_count   integer CHECK (return_page_count >= 0);
CREATE INDEX files_send_pending_idx ON files (send_requested_at) WHERE send_requested_at IS NOT NULL AND sent_at IS NULL;
CREATE INDEX files_return_pending_idx ON files (return_requested_at) WHERE return_requested_at IS NOT NULL AND NOT return_prepped;

-- One packet per file and congregation (the send job upserts it).
CREATE UNIQUE INDEX distributed_files_file_congregation_key ON distributed_files (file_id, congregation_id);

ALTER TABLE feedback_uploads
  ADD COLUMN uploaded_by    uuid REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN size_bytes     bigint CHECK (size_bytes >= 0),
  ADD COLUMN page_count     integer CHECK (page_count >= 0),
  ADD COLUMN failure_reason text,
  -- Intro uploads: the file their answer sheets were written to.
  ADD COLUMN file_id        uuid REFERENCES files (id) ON DELETE SET NULL;
CREATE INDEX feedback_uploads_pending_idx ON feedback_uploads (created_at) WHERE process_status = 'pending';

-- What became of every page of a graded upload, so the upload's result can be shown: matched to
-- an original page (or replacing an earlier scan of it), kept as the back of the page before,
-- or refused and why. Pages are staged here while the upload is read (resume after a crash).
CREATE TABLE feedback_upload_pages (
  upload_id      uuid NOT NULL REFERENCES feedback_uploads (id) ON DELETE CASCADE,
  page_number    integer NOT NULL CHECK (page_number > 0),
  code_prefix    text CHECK (code_prefix IN ('t', 's', 'p', 'c')),
  code_id        text,
  reason         text,
  blank          boolean NOT NULL DEFAULT false,
  read_error     text,
  -- Kept only while staging and for pages that became feedback.
  image_blob_key text,
  outcome        text CHECK (outcome IN ('matched', 'replaced', 'superseded', 'back', 'blank_back', 'blank',
                                         'wrong_congregation', 'not_sent', 'unknown_code', 'other_kind',
                                         'unrecognized', 'unreadable', 'intro')),
  page_id        uuid REFERENCES pages (id) ON DELETE SET NULL,
  detail         text,
  PRIMARY KEY (upload_id, page_number)
);
CREATE INDEX feedback_upload_pages_page_idx ON feedback_upload_pages (page_id) WHERE page_id IS NOT NULL;
CREATE INDEX feedback_upload_pages_image_idx ON feedback_upload_pages (image_blob_key) WHERE image_blob_key IS NOT NULL;

-- s codes are looked up by student and template when a return file reissues a next-lesson sheet.
CREATE INDEX printed_codes_student_target_idx ON printed_codes (student_id, target_id) WHERE student_id IS NOT NULL;
