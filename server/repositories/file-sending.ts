// Sending a file to its study helpers: the pages of each packet (one PDF per congregation), in
// the order they print, and one sheet's pages printed again.
import type { Database } from '../db/database';

/** A page of a packet, in print order. */
export interface PacketPageRow {
  page_id: string;
  image_blob_key: string | null;
  student_human_id: number | null;
  lesson_number: number | null;
  lesson_name: string | null;
  wbs_code: string | null;
  sheet_page: number;
  sheet_pages: number;
}

/** Kept pages of kept sheets narrowed by `where` (over sheets `a`), in print order. */
function packetPagesSql(where: string): string {
  return `
    SELECT p.id AS page_id, p.image_blob_key, st.human_id AS student_human_id,
           l.number AS lesson_number, l.name AS lesson_name, g.wbs_code,
           row_number() OVER (PARTITION BY a.id ORDER BY p.page_number)::int AS sheet_page,
           count(*) OVER (PARTITION BY a.id)::int AS sheet_pages
    FROM answer_sheets a
    JOIN pages p ON p.answer_sheet_id = a.id AND NOT p.ignored
    LEFT JOIN students st ON st.id = a.student_id
    LEFT JOIN lessons l ON l.id = a.lesson_id
    LEFT JOIN congregations g ON g.id = a.assigned_group
    WHERE ${where}
    ORDER BY st.human_id NULLS LAST, a.sequence, p.page_number`;
}

/** The pages of one congregation's packet of a file, in print order. */
export async function packetPagesOfCongregation(db: Database, fileId: string, congregationId: string): Promise<PacketPageRow[]> {
  return db.query<PacketPageRow>(packetPagesSql('a.file_id = $1 AND a.assigned_group = $2'), [fileId, congregationId]);
}

/** One sheet's pages as its packet prints them. */
export async function packetPagesOfSheet(db: Database, sheetId: string): Promise<PacketPageRow[]> {
  return db.query<PacketPageRow>(packetPagesSql('a.id = $1'), [sheetId]);
}
