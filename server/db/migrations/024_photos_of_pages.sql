-- Photos of pages (issue 35): an upload may be photos taken with a phone, one page each, instead
-- of one PDF. The photos are kept in the order taken (the file's or graded upload's pages are
-- those photos in order), each page keeps the photo as taken beside its straightened image, and
-- a photo that cannot be read says why: no sheet of paper in it, or too blurred.

CREATE TABLE upload_photos (
  file_id    uuid REFERENCES files (id) ON DELETE CASCADE,
  upload_id  uuid REFERENCES graded_uploads (id) ON DELETE CASCADE,
  position   integer NOT NULL CHECK (position > 0),
  blob_key   text NOT NULL,
  media_type text NOT NULL CHECK (media_type IN ('image/jpeg', 'image/png', 'image/heic')),
  CHECK ((file_id IS NULL) <> (upload_id IS NULL)),
  UNIQUE (file_id, position),
  UNIQUE (upload_id, position)
);
CREATE INDEX upload_photos_blob_idx ON upload_photos (blob_key);

-- The photo as taken (a JPEG, at most 2000 px), beside the page's straightened image.
ALTER TABLE pages ADD COLUMN photo_blob_key text;
ALTER TABLE graded_upload_pages ADD COLUMN photo_blob_key text;

ALTER TABLE pages DROP CONSTRAINT IF EXISTS pages_unrecognized_reason_check;
ALTER TABLE pages ADD CONSTRAINT pages_unrecognized_reason_check CHECK (unrecognized_reason IS NULL OR unrecognized_reason IN (
  'no_code_found', 'unreadable', 'unknown_code', 'other_kind', 'no_sheet', 'too_blurred'));

ALTER TABLE pages DROP CONSTRAINT IF EXISTS pages_flag_check;
ALTER TABLE pages ADD CONSTRAINT pages_flag_check CHECK (flag IS NULL OR flag IN (
  'no_code_found', 'unreadable', 'unknown_code', 'out_of_order', 'stray_page', 'another_course',
  'ambiguous_position', 'page_missing', 'scanned_twice', 'already_uploaded', 'no_sheet', 'too_blurred'));

ALTER TABLE graded_upload_pages DROP CONSTRAINT graded_upload_pages_outcome_check;
ALTER TABLE graded_upload_pages ADD CONSTRAINT graded_upload_pages_outcome_check
  CHECK (outcome IN ('matched', 'replaced', 'superseded', 'back', 'blank_back', 'blank',
                     'wrong_congregation', 'not_sent', 'file_archived', 'return_downloaded',
                     'unknown_code', 'other_kind', 'unrecognized', 'unreadable', 'intro',
                     'no_sheet', 'too_blurred'));
