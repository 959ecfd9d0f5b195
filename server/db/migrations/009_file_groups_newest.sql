-- A congregation's files, newest first, from file_groups alone. The files list of a coordinator
-- (or of an admin looking at one congregation) found its page by joining the congregation's
-- file_groups rows with every file in created_at order (10 000 in bench/lists.ts: 1.3 ms); with
-- the file's created_at kept beside the row, one index range gives the page (files.created_at
-- is set once, when the file is uploaded).
ALTER TABLE file_groups ADD COLUMN file_created_at timestamptz;
UPDATE file_groups fg SET file_created_at = f.created_at FROM files f WHERE f.id = fg.file_id;
ALTER TABLE file_groups ALTER COLUMN file_created_at SET NOT NULL;
CREATE INDEX file_groups_newest_idx ON file_groups (congregation_id, file_created_at DESC, file_id DESC);

-- A new row (file_groups_follow_sheet of migration 007 adds them) takes its file's created_at.
CREATE FUNCTION file_groups_take_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.file_created_at := (SELECT f.created_at FROM files f WHERE f.id = NEW.file_id);
  RETURN NEW;
END
$$;

CREATE TRIGGER file_groups_created_at BEFORE INSERT ON file_groups
  FOR EACH ROW EXECUTE FUNCTION file_groups_take_created_at();

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
