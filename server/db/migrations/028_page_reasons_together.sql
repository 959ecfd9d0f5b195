-- Pages too complex to read (023) and photos nothing could be read on (024) came in side by side,
-- each redefining the same checks with its own reasons: here they are both allowed.
ALTER TABLE pages DROP CONSTRAINT IF EXISTS pages_flag_check;
ALTER TABLE pages ADD CONSTRAINT pages_flag_check CHECK (flag IS NULL OR flag IN (
  'no_code_found', 'unreadable', 'unknown_code', 'out_of_order', 'stray_page', 'another_course',
  'ambiguous_position', 'page_missing', 'scanned_twice', 'already_uploaded', 'too_complex',
  'no_sheet', 'too_blurred'));

ALTER TABLE pages DROP CONSTRAINT IF EXISTS pages_unrecognized_reason_check;
ALTER TABLE pages ADD CONSTRAINT pages_unrecognized_reason_check CHECK (unrecognized_reason IS NULL OR unrecognized_reason IN (
  'no_code_found', 'unreadable', 'unknown_code', 'other_kind', 'too_complex', 'no_sheet', 'too_blurred'));

ALTER TABLE graded_upload_pages DROP CONSTRAINT graded_upload_pages_outcome_check;
ALTER TABLE graded_upload_pages ADD CONSTRAINT graded_upload_pages_outcome_check
  CHECK (outcome IN ('matched', 'replaced', 'superseded', 'back', 'blank_back', 'blank',
                     'wrong_congregation', 'not_sent', 'file_archived', 'return_downloaded',
                     'unknown_code', 'other_kind', 'unrecognized', 'unreadable', 'intro',
                     'too_complex', 'no_sheet', 'too_blurred'));
