-- Identity when paper is mishandled (DESIGN §4 "Placing a page by position, and paper seen
-- twice"): four more reasons a page waits in Review, what Review shows beside them, and each
-- page's fingerprint (its image, reduced) so paper fed or scanned twice is known by sight.

ALTER TABLE pages DROP CONSTRAINT IF EXISTS pages_flag_check;
ALTER TABLE pages ADD CONSTRAINT pages_flag_check CHECK (flag IS NULL OR flag IN (
  'no_code_found', 'unreadable', 'unknown_code', 'out_of_order', 'stray_page', 'another_course',
  'ambiguous_position', 'page_missing', 'scanned_twice', 'already_uploaded'));

-- candidate_sheets (sheet ids), copy_page_id + copy_file_id (the page it is the same paper as),
-- missing_pages (lesson page numbers).
ALTER TABLE pages ADD COLUMN flag_detail jsonb;

-- fingerprint_hash: a short hash to find candidates fast; fingerprint: the print that decides.
ALTER TABLE pages ADD COLUMN fingerprint_hash bytea, ADD COLUMN fingerprint bytea;
ALTER TABLE graded_upload_pages ADD COLUMN fingerprint_hash bytea, ADD COLUMN fingerprint bytea;

-- Earlier paper is looked up by the code it carries (a template's t code, a student's s code).
CREATE INDEX pages_seen_paper_idx ON pages (code_prefix, code_id, created_at) WHERE fingerprint_hash IS NOT NULL;

-- A graded page without a code is a back only when it is one: whether it carries the header line
-- printed on every packet page (printed lesson content) is noted as it is read.
ALTER TABLE graded_upload_pages ADD COLUMN printed_header boolean;
