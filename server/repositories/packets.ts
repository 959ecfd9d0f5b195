// packets: a sent file's packet for one congregation.
import type { Database } from '../db/database';
import { sendStampSql } from './sql/packet-sends';

export interface ReadyPacket {
  congregation_id: string;
  wbs_code: string;
  file_name: string;
  /** Kept answer sheets of the congregation in the file. */
  sheets: number;
  /** The send (sendStampSql). */
  send: string;
}

/** The packets of a file just sent, one per congregation. */
export async function readyPacketsOfFile(db: Database, fileId: string): Promise<ReadyPacket[]> {
  return db.query<ReadyPacket>(
    `SELECT d.congregation_id, g.wbs_code, f.name AS file_name, ${sendStampSql('f')} AS send,
            (SELECT count(*)::int FROM answer_sheets a WHERE a.file_id = d.file_id AND a.assigned_group = d.congregation_id
               AND EXISTS (SELECT 1 FROM pages p WHERE p.answer_sheet_id = a.id AND NOT p.ignored)) AS sheets
     FROM packets d JOIN congregations g ON g.id = d.congregation_id JOIN files f ON f.id = d.file_id
     WHERE d.file_id = $1`,
    [fileId],
  );
}
