-- Which congregations have sheets in which files, kept by a trigger as sheets are added, assigned,
-- reassigned and removed. A coordinator sees a file when its congregation has a sheet in it: asked
-- of answer_sheets, the files list had to read every sheet of the congregation (10 000 in
-- bench/lists.ts) for each page; here it reads one row per file of the congregation.
CREATE TABLE file_groups (
  file_id         uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  congregation_id uuid NOT NULL REFERENCES congregations (id) ON DELETE CASCADE,
  -- Sheets of the file assigned to the congregation; the row goes when the last one does.
  sheets          integer NOT NULL CHECK (sheets >= 0),
  PRIMARY KEY (congregation_id, file_id)
);
CREATE INDEX file_groups_file_idx ON file_groups (file_id);

INSERT INTO file_groups (file_id, congregation_id, sheets)
SELECT file_id, assigned_group, count(*) FROM answer_sheets WHERE assigned_group IS NOT NULL GROUP BY file_id, assigned_group;

CREATE FUNCTION file_groups_follow_sheet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.assigned_group IS NOT NULL THEN
    -- One sheet fewer, and the row goes with the last one. The update locks the row, so two
    -- sheets leaving at once count down one after the other. Rows already gone with their file
    -- or congregation (cascading deletes) are simply not found.
    UPDATE file_groups SET sheets = sheets - 1 WHERE file_id = OLD.file_id AND congregation_id = OLD.assigned_group;
    DELETE FROM file_groups WHERE file_id = OLD.file_id AND congregation_id = OLD.assigned_group AND sheets = 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.assigned_group IS NOT NULL THEN
    INSERT INTO file_groups (file_id, congregation_id, sheets) VALUES (NEW.file_id, NEW.assigned_group, 1)
    ON CONFLICT (congregation_id, file_id) DO UPDATE SET sheets = file_groups.sheets + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER answer_sheets_file_groups_insert_delete AFTER INSERT OR DELETE ON answer_sheets
  FOR EACH ROW EXECUTE FUNCTION file_groups_follow_sheet();
CREATE TRIGGER answer_sheets_file_groups_update AFTER UPDATE OF assigned_group, file_id ON answer_sheets
  FOR EACH ROW WHEN (OLD.assigned_group IS DISTINCT FROM NEW.assigned_group OR OLD.file_id IS DISTINCT FROM NEW.file_id)
  EXECUTE FUNCTION file_groups_follow_sheet();
