-- Identity: a page that could not be placed with certainty is kept and flagged with a reason a
-- person can act on (DESIGN §4). The flag holds the file in Review until a mend or Ignore Page
-- clears it; every mend is recorded (who, when).

ALTER TABLE pages
  ADD COLUMN flag text
  CHECK (flag IS NULL OR flag IN ('no_code_found', 'unreadable', 'unknown_code', 'out_of_order', 'stray_page', 'another_course'));

-- Until now a page without a code waited in Review until it was ignored or given a template.
UPDATE pages
SET flag = CASE unrecognized_reason WHEN 'other_kind' THEN 'unknown_code' ELSE unrecognized_reason END
WHERE answer_sheet_id IS NOT NULL AND unrecognized_reason IS NOT NULL AND template_id IS NULL;

CREATE INDEX pages_flag_idx ON pages (file_id) WHERE flag IS NOT NULL;

CREATE TABLE review_mends (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  file_id    uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  page_id    uuid NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  action     text NOT NULL CHECK (action IN ('moved', 'new_sheet', 'joined', 'code_typed', 'template_set', 'ignored', 'unignored')),
  user_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_mends_page_idx ON review_mends (page_id, created_at DESC);
