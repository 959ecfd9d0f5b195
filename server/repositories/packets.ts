// Packets: a congregation's printable PDF of a sent file ("distributed files"), and marking it
// printed when the portal downloads it.
import type { Database } from '../db/database';
import { sendStampSql } from './sql/packet-sends';

export interface PacketForDownloadRow {
  id: string;
  file_id: string;
  congregation_id: string;
  blob_key: string | null;
  file_name: string;
  wbs_code: string;
  archived: boolean;
}

/** The packet with its file's name and state and its congregation's code; null when there is none. */
export function packetForDownload(db: Database, id: string): Promise<PacketForDownloadRow | null> {
  return db.maybeOne<PacketForDownloadRow>(
    `SELECT d.id, d.file_id, d.congregation_id, d.blob_key, f.name AS file_name, g.wbs_code,
            f.file_status IS NOT DISTINCT FROM 'archived' AS archived
     FROM packets d JOIN files f ON f.id = d.file_id JOIN congregations g ON g.id = d.congregation_id
     WHERE d.id = $1`,
    [id],
  );
}

/** The packet was downloaded, so its file is printed for its congregation (the first time counts). */
export async function markPacketPrinted(tx: Database, packet: { id: string; file_id: string; congregation_id: string }): Promise<void> {
  await tx.query('UPDATE packets SET downloaded_at = COALESCE(downloaded_at, now()) WHERE id = $1', [packet.id]);
  await tx.query('UPDATE file_congregations SET printed_at = COALESCE(printed_at, now()) WHERE file_id = $1 AND congregation_id = $2', [
    packet.file_id,
    packet.congregation_id,
  ]);
  await tx.query('UPDATE files SET printed = true WHERE id = $1 AND NOT printed', [packet.file_id]);
}

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
