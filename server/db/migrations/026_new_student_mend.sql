-- A page taken for a rescan that is not the same paper after all gets its own student in Review.
ALTER TABLE review_mends DROP CONSTRAINT IF EXISTS review_mends_action_check;
ALTER TABLE review_mends ADD CONSTRAINT review_mends_action_check CHECK (action IN (
  'moved', 'new_sheet', 'joined', 'code_typed', 'template_set', 'ignored', 'unignored',
  'duplicate_kept', 'student_set', 'turned', 'new_student'));
