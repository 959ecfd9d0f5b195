// The progress tag (spec §7 "Progress"): a job run's progress as the server streams it. A run
// started in this world (an upload, a send, a regeneration, a seeded file still processing) goes
// step by step, its end changing the world as the job would; a run that ended long ago shows its
// last state at once; no run, 404.
import type { HttpHandler } from 'msw';
import { getStreamJobProgressMockHandler, getStreamProgressMockHandler } from '../../../../../generated/hooks/progress/progress.msw';
import { answer, notFound, progressMessages, progressStream, type WorldAccess } from '../http';
import { seededRandom } from '../random';
import { keptSheets } from '../views';
import { processedSheets, type FileRow, type World } from '../world';

/** What the pipeline finds in a pending file: the same sheets and pages for the same file id. */
function processing(world: World, file: FileRow) {
  const seed = [...file.id].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7);
  return processedSheets(world, seededRandom(seed), file, 2 + (seed % 7));
}

/** A pending file read by the pipeline: its sheets and pages join the world (in errors: it fails). */
function finishProcessing(world: World, file: FileRow): void {
  if (file.process_status !== 'pending') return;
  if (world.scenario === 'errors') {
    file.process_status = 'failed';
    file.failure_reason = 'No answer sheet could be read in this file.';
    return;
  }
  const { sheets, pages } = processing(world, file);
  world.sheets.push(...sheets);
  world.pages.push(...pages);
  file.process_status = 'success';
}

function jobStream(access: WorldAccess, group: string, runId: string): Response {
  const current = access.world();
  const key = `${group}/${runId}`;
  const file = current.files.find((row) => row.id === runId);
  const upload = current.uploads.find((row) => row.id === runId);
  const ran: Record<string, boolean> = {
    process_service_center_upload: file !== undefined,
    send_to_study_helpers: file?.sent_at !== null && file !== undefined,
    generate_return_file_requested: file?.prepped === true,
    process_graded_upload: upload !== undefined,
  };
  if (!ran[group]) return notFound('No such job run');
  const count = file
    ? group === 'process_service_center_upload'
      ? file.process_status === 'pending' ? processing(current, file).pages.length : current.pages.filter((page) => page.fileId === file.id).length
      : keptSheets(current, file.id).length
    : 1;
  const fails = current.scenario === 'errors' || file?.process_status === 'failed';
  const messages = progressMessages(count, fails ? 'failed' : 'success');
  if (!current.runningJobs.includes(key)) return progressStream(messages.slice(-1), access.progressIntervalMs, () => undefined);
  return progressStream(messages, access.progressIntervalMs, () => {
    current.runningJobs = current.runningJobs.filter((running) => running !== key);
    if (file && group === 'process_service_center_upload') finishProcessing(current, file);
  });
}

export function progressResponders(access: WorldAccess): HttpHandler[] {
  return [
    answer(getStreamJobProgressMockHandler, ({ params }) => jobStream(access, String(params.groupName), String(params.runId))),
    answer(getStreamProgressMockHandler, ({ params }) => jobStream(access, 'process_service_center_upload', String(params.id))),
  ];
}
