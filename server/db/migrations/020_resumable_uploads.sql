-- Resumable uploads (tus 1.0.0 at /api/uploads/resumable): who started one, what kind of upload
-- it becomes, the fields its multipart twin would carry, and how it ended once the last byte
-- arrived. The bytes themselves are parts in the blob store's temporary area, not here.
CREATE TABLE resumable_uploads (
  id              text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('service_center', 'graded')),
  -- name, answer_sheet_page_length, scanned_at (service_center); name, study_helper (graded).
  fields          jsonb NOT NULL,
  filename        text NOT NULL,
  length          bigint NOT NULL CHECK (length >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- Every PATCH touches it: an upload untouched for a day is abandoned and its parts removed.
  touched_at      timestamptz NOT NULL DEFAULT now(),
  state           text NOT NULL DEFAULT 'receiving'
                  CHECK (state IN ('receiving', 'finishing', 'accepted', 'refused')),
  finishing_since timestamptz,
  -- accepted: the new file's (service_center) or graded upload's id.
  result_id       uuid,
  -- refused: the answer the multipart call would have given, {status, detail}.
  refusal         jsonb
);

CREATE INDEX resumable_uploads_touched_idx ON resumable_uploads (touched_at);
CREATE INDEX resumable_uploads_user_idx ON resumable_uploads (user_id);
