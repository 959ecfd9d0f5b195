-- What comes back from the field: upload reports that say why a page was not taken, and return
-- files made for double-sided printers with a one-sided variant beside them.

-- The one-sided return file (the two-sided one stays in return_blob_key).
ALTER TABLE files ADD COLUMN return_one_sided_blob_key text;

-- Two reasons a graded page is refused that were one ("not_sent") or none before: its file is
-- archived, or the page was graded already and its return file has gone out (newer scan not kept).
ALTER TABLE feedback_upload_pages DROP CONSTRAINT feedback_upload_pages_outcome_check;
ALTER TABLE feedback_upload_pages ADD CONSTRAINT feedback_upload_pages_outcome_check
  CHECK (outcome IN ('matched', 'replaced', 'superseded', 'back', 'blank_back', 'blank',
                     'wrong_congregation', 'not_sent', 'file_archived', 'already_returned', 'unknown_code',
                     'other_kind', 'unrecognized', 'unreadable', 'intro'));
