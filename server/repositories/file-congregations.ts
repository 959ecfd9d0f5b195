// file_congregations: a congregation's state of a sent file (its packet), from unprinted to
// returned.
import type { Database } from '../db/database';
import type { Schemas } from '../contract/types';
import { keptSheetSql } from './sql/file-steps';
import { sendStampSql } from './sql/packet-sends';

/**
 * Recomputes each congregation's state of the file from its kept sheets: unprinted → grading
 * (printed, or a first graded scan) → partially_graded → graded; returned stays.
 */
export async function refreshCongregationStatesOfFile(db: Database, fileId: string): Promise<void> {
  await db.query(
    `WITH sheets AS (
       SELECT a.assigned_group, a.graded,
              EXISTS (SELECT 1 FROM pages p JOIN feedback fb ON fb.page_id = p.id WHERE p.answer_sheet_id = a.id) AS has_feedback
       FROM answer_sheets a WHERE a.file_id = $1 AND a.assigned_group IS NOT NULL AND ${keptSheetSql('a')}),
     states AS (
       SELECT fc.congregation_id,
              CASE WHEN fc.status = 'returned' THEN 'returned'
                   WHEN count(s.assigned_group) > 0 AND count(s.assigned_group) FILTER (WHERE s.graded) = count(s.assigned_group) THEN 'graded'
                   WHEN count(s.assigned_group) FILTER (WHERE s.graded) > 0 THEN 'partially_graded'
                   WHEN fc.printed_at IS NOT NULL OR coalesce(bool_or(s.has_feedback), false) THEN 'grading'
                   ELSE 'unprinted' END AS status
       FROM file_congregations fc LEFT JOIN sheets s ON s.assigned_group = fc.congregation_id
       WHERE fc.file_id = $1
       GROUP BY fc.congregation_id, fc.status, fc.printed_at)
     UPDATE file_congregations fc SET status = states.status
     FROM states WHERE fc.file_id = $1 AND fc.congregation_id = states.congregation_id AND fc.status <> states.status`,
    [fileId],
  );
}

export interface WaitingPacket {
  file_id: string;
  congregation_id: string;
  file_name: string;
  status: Schemas['CongregationFileStatus'];
  /** The send (sendStampSql). */
  send: string;
  /** Whole weeks of `reminderDays` since the send. */
  week: number;
  days: number;
}

/**
 * Packets sent at least `reminderDays` ago that are still unprinted or not fully graded, of
 * files not archived, whose congregation has an address.
 */
export async function packetsWaitingForReminder(db: Database, reminderDays: number): Promise<WaitingPacket[]> {
  return db.query<WaitingPacket>(
    `SELECT fc.file_id, fc.congregation_id, f.name AS file_name, fc.status, ${sendStampSql('f')} AS send,
            floor(extract(epoch FROM now() - f.sent_at) / (86400 * $1))::int AS week,
            floor(extract(epoch FROM now() - f.sent_at) / 86400)::int AS days
     FROM file_congregations fc JOIN files f ON f.id = fc.file_id
     WHERE fc.status IN ('unprinted', 'grading', 'partially_graded') AND f.sent_at IS NOT NULL
       AND f.sent_at <= now() - make_interval(days => $1)
       AND f.file_status IS DISTINCT FROM 'archived'
       AND EXISTS (SELECT 1 FROM congregation_emails e WHERE e.congregation_id = fc.congregation_id)`,
    [reminderDays],
  );
}
