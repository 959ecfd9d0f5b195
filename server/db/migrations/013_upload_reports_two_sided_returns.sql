-- What comes back from the field: upload reports that say why a page was not taken, and return
-- files made for double-sided printers with a one-sided variant beside them.

-- The one-sided return file (the two-sided one stays in return_blob_key).
ALTER TABLE files ADD COLUMN return_one_sided_blob_key text;

-- A graded page of an archived file is refused as such (it was "not_sent" before). Refused
-- pages now keep their images: the upload's report shows them.
ALTER TABLE feedback_upload_pages DROP CONSTRAINT feedback_upload_pages_outcome_check;
ALTER TABLE feedback_upload_pages ADD CONSTRAINT feedback_upload_pages_outcome_check
  CHECK (outcome IN ('matched', 'replaced', 'superseded', 'back', 'blank_back', 'blank',
                     'wrong_congregation', 'not_sent', 'file_archived', 'unknown_code',
                     'other_kind', 'unrecognized', 'unreadable', 'intro'));
