// Who hears what by e-mail, so nobody has to sign in to learn that work waits (DESIGN §4). Each
// function queues its messages (mail-outbox.ts) in the caller's transaction, at the moment the
// event happens; the mail job sends them. Messages are short, in the product's words, and end
// with a plain link (built from PUBLIC_URL) to the place to act; nothing tracks the reader.
import type { Database } from '../db/database';
import { emailsOfCongregation } from '../repositories/congregation-emails';
import { packetsWaitingForReminder } from '../repositories/file-congregations';
import { fileNotReadReport, fileReadReport, returnFileOfFile } from '../repositories/files';
import { uploadNotReadReport, uploadReportCounts } from '../repositories/graded-uploads';
import { readyPacketsOfFile } from '../repositories/packets';
import { flagCountsOfFile } from '../repositories/pages';
import { scanningAdminEmails, uploadReportEmailOf } from '../repositories/users';
import { queueMail, type Message } from './mail-outbox';

/** How often a congregation is reminded while its packet waits. */
export const REMINDER_DAYS = 7;

/** Flag reasons as the Review screen words them. */
const FLAG_WORDS: Record<string, string> = {
  no_code_found: 'no code found',
  unreadable: 'code unreadable',
  unknown_code: 'unknown code',
  out_of_order: 'out of order',
  stray_page: 'stray page',
  another_course: 'another course',
  too_complex: 'too large or too complex to read',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A message of a few lines and one link, as plain text and as simple HTML. */
export function message(subject: string, lines: readonly string[], link: { label: string; url: string }): Message {
  const text = [...lines, '', `${link.label}: ${link.url}`, '', '-- Bible Study Portal'].join('\n');
  const html = [
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    '<p>-- Bible Study Portal</p>',
  ].join('\n');
  return { subject, text, html };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The uploader's address, unless they turned upload reports off (or are gone). */
async function uploaderAddress(db: Database, userId: string | null): Promise<string[]> {
  if (userId === null) return [];
  const email = await uploadReportEmailOf(db, userId);
  return email === null ? [] : [email];
}

/** The file was sent: each congregation's addresses hear that its packet is ready to print. */
export async function tellPacketsReady(db: Database, fileId: string, publicUrl: string): Promise<void> {
  // Each packet's send is in its keys: a file taken back and sent again is news again.
  const packets = await readyPacketsOfFile(db, fileId);
  for (const packet of packets) {
    await queueMail(
      db,
      `packet-ready:${fileId}:${packet.congregation_id}:${packet.send}`,
      (await emailsOfCongregation(db, packet.congregation_id)).map((row) => row.email),
      message(
        `A packet is ready to print: ${packet.file_name}`,
        [`A packet for ${packet.wbs_code} is ready to print: ${packet.file_name}, ${plural(packet.sheets, 'answer sheet', 'answer sheets')}.`],
        { label: 'Print it under Ready to Print', url: `${publicUrl}/files?mode=print` },
      ),
    );
  }
}

/**
 * Once a week while a packet stays unprinted or is not fully graded, its congregation's addresses
 * are reminded (the send and the week's number are in the key: one reminder a week, however
 * often and on however many workers this runs).
 */
export async function remindWaitingPackets(db: Database, publicUrl: string): Promise<number> {
  // The weekly reminders of a send count from that send.
  const waiting = await packetsWaitingForReminder(db, REMINDER_DAYS);
  let queued = 0;
  for (const packet of waiting) {
    const state = packet.status === 'unprinted' ? 'is not printed yet' : 'is not fully graded yet';
    queued += await queueMail(
      db,
      `packet-reminder:${packet.file_id}:${packet.congregation_id}:${packet.send}:${packet.week}`,
      (await emailsOfCongregation(db, packet.congregation_id)).map((row) => row.email),
      message(
        `Reminder: a packet waits: ${packet.file_name}`,
        [`The packet of ${packet.file_name}, sent ${packet.days} days ago, ${state}.`],
        { label: 'Open Ready to Print', url: `${publicUrl}/files?mode=print` },
      ),
    );
  }
  return queued;
}

/** A graded upload (or intro file) was read: its uploader gets its report. */
export async function tellUploadReport(db: Database, uploadId: string, publicUrl: string): Promise<void> {
  const upload = await uploadReportCounts(db, uploadId);
  if (upload === null) return;
  await queueMail(
    db,
    `upload-report:${uploadId}`,
    await uploaderAddress(db, upload.uploaded_by),
    message(
      `Upload read: ${upload.name}`,
      [
        `Your upload ${upload.name} has been read.`,
        `Matched: ${upload.matched}. Not matched: ${upload.not_matched}. Blank and dropped: ${upload.blank_dropped}.`,
      ],
      { label: 'Open the report', url: `${publicUrl}/files/uploads/${uploadId}` },
    ),
  );
}

/**
 * A service center's file was read: its uploader gets the count of answer sheets and flagged
 * pages; when flags hold it in Review, the admins hear it with the count of each flag.
 */
export async function tellFileRead(db: Database, fileId: string, publicUrl: string): Promise<void> {
  const file = await fileReadReport(db, fileId);
  if (file === null) return;
  const flags = await flagCountsOfFile(db, fileId);
  const flagged = flags.reduce((sum, row) => sum + row.pages, 0);
  const link = { label: 'Open the file', url: `${publicUrl}/file/${fileId}` };
  await queueMail(
    db,
    `file-report:${fileId}`,
    await uploaderAddress(db, file.uploaded_by),
    message(
      `File read: ${file.name}`,
      [
        `Your file ${file.name} has been read: ${plural(file.pages, 'page', 'pages')}, ${plural(file.sheets, 'answer sheet', 'answer sheets')}.`,
        `Flagged pages: ${flagged}.`,
      ],
      link,
    ),
  );
  if (file.step !== 'review') return;
  await queueMail(
    db,
    `file-review:${fileId}`,
    await scanningAdminEmails(db),
    message(
      `A file waits in Review: ${file.name}`,
      [
        `${file.name} waits in Review: ${plural(flagged, 'flagged page', 'flagged pages')}.`,
        ...flags.map((row) => `${FLAG_WORDS[row.flag] ?? row.flag.replace(/_/g, ' ')}: ${row.pages}`),
      ],
      link,
    ),
  );
}

/** What "not read" says of each kind of upload, and where its link leads. */
const NOT_READ = {
  upload: { report: uploadNotReadReport, subject: 'Upload not read', noun: 'upload', label: 'Open the report', path: '/files/uploads/' },
  file: { report: fileNotReadReport, subject: 'File not read', noun: 'file', label: 'Open the file', path: '/file/' },
} as const;

/**
 * A graded upload (or intro file) or a service center's file could not be read: its uploader
 * hears why, to upload it again (unless they turned upload reports off).
 */
export async function tellNotRead(db: Database, kind: keyof typeof NOT_READ, id: string, publicUrl: string): Promise<void> {
  const words = NOT_READ[kind];
  const row = await words.report(db, id);
  if (row === null) return;
  await queueMail(
    db,
    `${kind}-not-read:${id}`,
    await uploaderAddress(db, row.uploaded_by),
    message(
      `${words.subject}: ${row.name}`,
      [`Your ${words.noun} ${row.name} could not be read.`, ...(row.failure_reason ? [row.failure_reason] : [])],
      { label: words.label, url: `${publicUrl}${words.path}${id}` },
    ),
  );
}

/** A file's return file was made (again): the admins hear that it is ready to download. */
export async function tellReturnFileReady(db: Database, fileId: string, publicUrl: string): Promise<void> {
  const file = await returnFileOfFile(db, fileId, false);
  if (file === null || file.blob_key === null) return;
  await queueMail(
    db,
    // A return file made again (a newer scan) is news again.
    `return-ready:${fileId}:${file.blob_key}`,
    await scanningAdminEmails(db),
    message(
      `A return file is ready to download: ${file.name}`,
      [`The return file of ${file.name} is ready to download for its service center.`],
      { label: 'Open the file', url: `${publicUrl}/file/${fileId}` },
    ),
  );
}
