-- A graded page of a file whose return file was downloaded is refused as such: that file's
-- grading is closed, and the report says so (the constraint kept its name through 016's rename).
ALTER TABLE graded_upload_pages DROP CONSTRAINT feedback_upload_pages_outcome_check;
ALTER TABLE graded_upload_pages ADD CONSTRAINT graded_upload_pages_outcome_check
  CHECK (outcome IN ('matched', 'replaced', 'superseded', 'back', 'blank_back', 'blank',
                     'wrong_congregation', 'not_sent', 'file_archived', 'return_downloaded',
                     'unknown_code', 'other_kind', 'unrecognized', 'unreadable', 'intro'));
