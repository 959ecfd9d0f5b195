// The upload dialog's `followProcessing` actor for each kind of upload: waits (polling) until the
// server has read every page of the uploaded files, then sums up what it made of them. Graded
// uploads: their reports (matched / not matched / blank backs dropped). Service-center files:
// their stats (flagged pages wait in Review).
import { getFile, getFileStats } from '../../../generated/hooks/files/files';
import { getUpload } from '../../../generated/hooks/uploads/uploads';
import type { FileStats, UploadReport } from '../../../generated/hooks/model';
import type { FollowProcessingInput, ProcessingReport } from '../../../machines/upload-dialog/upload-dialog.types';
import { paths } from '../../config/paths';

/** How often the dialog asks whether processing is done. */
export const PROCESSING_POLL_MS = 1_000;

export const GRADED_NEXT_STEP = 'Open the upload to see each page not matched and why.';
export const SERVICE_CENTER_NEXT_STEP = 'Open the file and mend the flagged pages in Review.';
export const PROCESSING_FAILED_STEP = 'Processing failed: the PDF could not be read. Please try again.';

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('Stopped following', 'AbortError'));
    });
  });
}

async function untilDone<T extends { process_status?: string }>(read: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (;;) {
    const value = await read();
    if (value.process_status !== 'pending') return value;
    await pause(PROCESSING_POLL_MS, signal);
  }
}

const count = (label: string, n: number) => ({ label, count: n });

/** Graded uploads: success only when every page read was matched (blank backs aside). */
export function gradedReport(reports: readonly UploadReport[]): ProcessingReport {
  const sum = (key: keyof UploadReport['summary']) => reports.reduce((total, report) => total + report.summary[key], 0);
  const failed = reports.filter((report) => report.process_status === 'failed').length;
  const notMatched = sum('not_matched');
  const problems = notMatched + failed;
  // Nothing read at all is no success either: a file of blank pages matched nothing.
  const nothingMatched = failed === 0 && sum('matched') === 0;
  return {
    problems: problems + (nothingMatched ? 1 : 0),
    counts: [count('pages read', sum('pages_read')), count('matched', sum('matched')), count('not matched', notMatched), count('blank backs dropped', sum('blank_dropped'))],
    nextStep: failed > 0 ? PROCESSING_FAILED_STEP : problems + (nothingMatched ? 1 : 0) > 0 ? GRADED_NEXT_STEP : null,
    href: reports[0] ? paths.upload(reports[0].id) : null,
  };
}

/** The pages of a service-center file that wait for a person in Review. */
export function flaggedPages(stats: FileStats): { label: string; count: number }[] {
  return [
    // Flagged pages, whatever their reason (the file's Action Items break them down).
    count('pages to review', stats.flagged),
    count('mismatched', stats.mismatched),
    count('duplicates', stats.duplicates),
    count('missing student', stats.missing_student),
    count('missing lesson', stats.missing_lesson),
  ].filter((item) => item.count > 0);
}

/** A batch scanned again: said before anyone reviews it. */
export function repeatedFileStep(name: string, pages: number): string {
  return `This file repeats “${name}”: ${pages} of its pages were uploaded there before and made no new students. If it is the same batch scanned again, delete this file.`;
}

/** Service-center files: success only when nothing is flagged. */
export function serviceCenterReport(files: readonly { id: string; failed: boolean; stats: FileStats | null }[]): ProcessingReport {
  const failed = files.filter((file) => file.failed).length;
  const stats = files.flatMap((file) => (file.stats ? [file.stats] : []));
  const total = (key: 'pages' | 'sheets') => stats.reduce((sum, s) => sum + s[key], 0);
  const flagged = stats.flatMap(flaggedPages).reduce<Map<string, number>>((map, item) => map.set(item.label, (map.get(item.label) ?? 0) + item.count), new Map());
  const problems = failed + [...flagged.values()].reduce((a, b) => a + b, 0);
  const repeated = stats.find((s) => s.repeat_of)?.repeat_of;
  const seenBefore = stats.reduce((sum, s) => sum + s.reasons.already_uploaded + s.reasons.scanned_twice, 0);
  return {
    problems,
    counts: [
      count('pages read', total('pages')),
      count('answer sheets', total('sheets')),
      ...[...flagged].map(([label, n]) => count(label, n)),
      ...(seenBefore > 0 ? [count('pages scanned before', seenBefore)] : []),
    ],
    nextStep:
      failed > 0 ? PROCESSING_FAILED_STEP : repeated ? repeatedFileStep(repeated.name, repeated.pages) : problems > 0 ? SERVICE_CENTER_NEXT_STEP : null,
    href: files[0] ? paths.file(files[0].id) : null,
  };
}

export async function followProcessing(input: FollowProcessingInput, signal: AbortSignal): Promise<ProcessingReport> {
  if (input.variant === 'study_helper') {
    const reports: UploadReport[] = [];
    for (const id of input.ids) reports.push(await untilDone(() => getUpload(id, { signal }), signal));
    return gradedReport(reports);
  }
  const files: { id: string; failed: boolean; stats: FileStats | null }[] = [];
  for (const id of input.ids) {
    const file = await untilDone(() => getFile(id, { signal }), signal);
    const failed = file.process_status === 'failed';
    files.push({ id, failed, stats: failed ? null : await getFileStats(id, { signal }) });
  }
  return serviceCenterReport(files);
}
