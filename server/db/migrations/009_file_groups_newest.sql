-- A congregation's files, newest first, from file_groups alone. The files list of a coordinator
-- (or of an admin looking at one congregation) found its page by joining the congregation's
-- file_groups rows with every file in created_at order (10 000 in bench/lists.ts: 1.3 ms); with
-- the file's created_at kept beside the row, one index range gives the page (files.created_at
-- is set once, when the file is uploaded).
ALTER TABLE file_groups ADD COLUMN file_created_at timestamptz;
UPDATE file_groups fg SET file_created_at = f.created_at FROM files f WHERE f.id = fg.file_id;
ALTER TABLE file_groups ALTER COLUMN file_created_at SET NOT NULL;
CREATE INDEX file_groups_newest_idx ON file_groups (congregation_id, file_created_at DESC, file_id DESC);

CREATE OR REPLACE FUNCTION file_groups_follow_sheet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.assigned_group IS NOT NULL THEN
    -- One sheet fewer, and the row goes with the last one. The update locks the row, so two
    -- sheets leaving at once count down one after the other. Rows already gone with their file
    -- or congregation (cascading deletes) are simply not found.
    UPDATE file_groups SET sheets = sheets - 1 WHERE file_id = OLD.file_id AND congregation_id = OLD.assigned_group;
    DELETE FROM file_groups WHERE file_id = OLD.file_id AND congregation_id = OLD.assigned_group AND sheets = 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.assigned_group IS NOT NULL THEN
    INSERT INTO file_groups (file_id, congregation_id, sheets, file_created_at)
    VALUES (NEW.file_id, NEW.assigned_group, 1, (SELECT f.created_at FROM files f WHERE f.id = NEW.file_id))
    ON CONFLICT (congregation_id, file_id) DO UPDATE SET sheets = file_groups.sheets + 1;
  END IF;
  RETURN NULL;
END
$$;

-- Kept in step should a file's created_at ever change (nothing in the portal changes it today).
CREATE FUNCTION file_groups_follow_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE file_groups SET file_created_at = NEW.created_at WHERE file_id = NEW.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER files_file_groups_created_at AFTER UPDATE OF created_at ON files
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION file_groups_follow_file();
