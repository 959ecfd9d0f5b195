-- Paging through the students and files lists (bench/lists.ts: 100k students, 10k files).

-- A page of students by human id is chosen from this index alone (index-only scan), however deep
-- the page: the rows themselves are read for the page's ten students only.
CREATE INDEX students_human_id_page_idx ON students (human_id, id);
-- A coordinator's students, by human id (the list's default order).
CREATE INDEX students_congregation_human_id_idx ON students (congregation_id, human_id, id);
-- Which files hold sheets of a congregation (a coordinator sees only those), and those sheets.
CREATE INDEX answer_sheets_group_file_idx ON answer_sheets (assigned_group, file_id) INCLUDE (id) WHERE assigned_group IS NOT NULL;
-- A sheet counts as a response while it keeps a page: a file's responses are counted from this
-- index alone.
CREATE INDEX pages_file_kept_idx ON pages (file_id, answer_sheet_id) WHERE NOT ignored;
-- A file's sheets with what the files list shows of them (count, congregations, courses),
-- without visiting the table.
CREATE INDEX answer_sheets_file_list_idx ON answer_sheets (file_id) INCLUDE (id, assigned_group, lesson_id);
