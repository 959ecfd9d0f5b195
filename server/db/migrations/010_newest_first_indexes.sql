-- Newest first, as the lists sort (orderClause): created_at DESC, then the id tie-breaker in the
-- same direction, id DESC. The indexes of 001 held (created_at DESC, id ASC), which matches
-- neither that order nor its reverse: PostgreSQL read them and then sorted every group of equal
-- times again (an Incremental Sort over all the rows up to the page, 5010 of them for page 500
-- of the students). In the lists' own order, a page is the index read as far as the page.
DROP INDEX students_created_at_idx;
CREATE INDEX students_created_at_idx ON students (created_at DESC, id DESC);
DROP INDEX files_created_at_idx;
CREATE INDEX files_created_at_idx ON files (created_at DESC, id DESC);
DROP INDEX files_uploaded_at_idx;
CREATE INDEX files_uploaded_at_idx ON files (uploaded_at DESC, id DESC);
DROP INDEX feedback_uploads_created_at_idx;
CREATE INDEX feedback_uploads_created_at_idx ON feedback_uploads (created_at DESC, id DESC);
-- A student's latest answer sheet (each students list row shows it) and its answer sheets, newest
-- first: the same for a student's sheets.
DROP INDEX answer_sheets_student_idx;
CREATE INDEX answer_sheets_student_idx ON answer_sheets (student_id, created_at DESC, id DESC);
