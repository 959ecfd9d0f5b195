-- Duplicates are decided in Review like any other flag: a person keeps the sheet (it is sent like
-- any other) or ignores its pages. Sheets of files already sent were sent, so they count as kept.
ALTER TABLE answer_sheets ADD COLUMN duplicate_kept boolean NOT NULL DEFAULT false;
UPDATE answer_sheets a SET duplicate_kept = true
WHERE a.duplicate_of IS NOT NULL
  AND EXISTS (SELECT 1 FROM files f WHERE f.id = a.file_id AND (f.sent_at IS NOT NULL OR f.send_requested_at IS NOT NULL));

-- New mends: keep a duplicate, name a sheet's student, turn a sideways page.
ALTER TABLE review_mends DROP CONSTRAINT IF EXISTS review_mends_action_check;
ALTER TABLE review_mends ADD CONSTRAINT review_mends_action_check CHECK (action IN (
  'moved', 'new_sheet', 'joined', 'code_typed', 'template_set', 'ignored', 'unignored',
  'duplicate_kept', 'student_set', 'turned'));
