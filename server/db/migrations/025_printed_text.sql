-- Pages whose codes are destroyed are read from their printed text (OCR): what was read is kept
-- with the page, a page placed by it says so (identified_by), and what did not confirm one sheet
-- is offered to a person in Review (printed_suggestion: the codes of the sheet pages it fits).
ALTER TABLE pages ADD COLUMN printed_text jsonb;
ALTER TABLE pages ADD COLUMN printed_suggestion jsonb;
ALTER TABLE pages ADD COLUMN identified_by text
  CHECK (identified_by IN ('code', 'printed_text', 'person'));
ALTER TABLE graded_upload_pages ADD COLUMN printed_text jsonb;
ALTER TABLE graded_upload_pages ADD COLUMN identified_by text
  CHECK (identified_by IN ('code', 'printed_text', 'person'));
