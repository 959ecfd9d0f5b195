// The warnings of a file (GET /api/file/{id}/stats), each a link to the file's responses
// (spec §2 "Action Items", §4 "Review: warnings link to the responses"). Pages flagged in Review
// are counted by reason and link to the responses that have them; blank backs are told, not warned;
// once Review is over only what still needs a person before Send is listed, and once the file was
// sent nothing is (its responses are fixed: no one can act on a warning any more).
import { Link } from 'react-router-dom';
import type { FileStats, ReviewReason, WorkflowStep } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';
import { REVIEW_REASON_LABEL, REVIEW_REASONS } from '../../components/page-item/review-reasons';

export interface ActionItem {
  key: string;
  text: string;
  /** Links to the responses with pages of this reason; otherwise to all responses. */
  reason?: ReviewReason;
  /** Links elsewhere (the earlier file a batch repeats). */
  to?: string;
  severity: 'warning' | 'info';
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

type CountKey = 'mismatched' | 'missing_lesson' | 'missing_student' | 'unassigned';

const SHEET_WARNINGS: readonly { key: CountKey; one: string; many: string }[] = [
  { key: 'mismatched', one: 'mismatched page', many: 'mismatched pages' },
  { key: 'missing_lesson', one: 'response without a lesson', many: 'responses without a lesson' },
  {
    key: 'missing_student',
    one: 'response without a student',
    many: 'responses without a student',
  },
  {
    key: 'unassigned',
    one: 'response without a congregation',
    many: 'responses without a congregation',
  },
];

/** Where the file stands for its Action Items: in Review, past it but not sent, or sent (and on). */
export type ActionPhase = 'review' | 'after_review' | 'sent';

/** The phase of a file at a workflow step (`loaded`: the step is known yet; `archived`: the file is). */
export function actionPhaseOf(loaded: boolean, archived: boolean, step: WorkflowStep): ActionPhase {
  if (!loaded) return 'review';
  if (archived || step === 'grading' || step === 'return') return 'sent';
  return step === 'assign' || step === 'send' ? 'after_review' : 'review';
}

/**
 * One item per warning with a count above zero, in the order a reviewer deals with them. Once
 * Review is over its decisions are made: duplicates, blank backs and ignored pages are no longer
 * listed. Once the file was sent its responses are fixed, so nothing is.
 */
export function actionItems(stats: FileStats, phase: ActionPhase = 'review'): ActionItem[] {
  if (phase === 'sent') return [];
  if (phase === 'after_review') return reviewItems(stats).filter((item) => item.severity === 'warning' && item.reason !== 'duplicate_sheet');
  return reviewItems(stats);
}

function reviewItems(stats: FileStats): ActionItem[] {
  const items: ActionItem[] = [];
  if (stats.repeat_of)
    items.push({
      key: 'repeat_of',
      text: `Already uploaded: ${plural(stats.repeat_of.pages, 'page', 'pages')} of this file are in “${stats.repeat_of.name}”`,
      to: paths.file(stats.repeat_of.file_id),
      severity: 'warning',
    });
  for (const reason of REVIEW_REASONS) {
    const count = stats.reasons[reason];
    if (count === 0) continue;
    const text =
      reason === 'duplicate_sheet'
        ? plural(stats.duplicates, 'duplicate response', 'duplicate responses')
        : reason === 'blank_back'
          ? plural(count, 'blank back', 'blank backs')
          : `${plural(count, 'page', 'pages')}: ${REVIEW_REASON_LABEL[reason]}`;
    items.push({
      key: reason,
      text,
      reason,
      severity: reason === 'blank_back' ? 'info' : 'warning',
    });
  }
  // A mismatched page may also be flagged; the sheet counts are their own.
  for (const warning of SHEET_WARNINGS) {
    if (stats[warning.key] > 0)
      items.push({
        key: warning.key,
        text: plural(stats[warning.key], warning.one, warning.many),
        severity: 'warning',
      });
  }
  const ignored = stats.ignored - stats.reasons.blank_back;
  if (ignored > 0)
    items.push({
      key: 'ignored',
      text: plural(ignored, 'ignored page', 'ignored pages'),
      severity: 'info',
    });
  return items;
}

export const NO_ACTION_ITEMS = 'No action items';

export function ActionItemLinks({
  fileId,
  stats,
  label,
  phase = 'review',
}: {
  fileId: string;
  stats: FileStats | undefined;
  label: string;
  phase?: ActionPhase;
}) {
  if (!stats) return null;
  const items = actionItems(stats, phase);
  if (items.length === 0) return <p className="action-items-none">{NO_ACTION_ITEMS}</p>;
  return (
    <ul className="action-items" aria-label={label}>
      {items.map((item) => (
        <li key={item.key} className={`action-item-${item.severity}`}>
          <span
            className={
              item.severity === 'warning' ? 'pi pi-exclamation-triangle' : 'pi pi-info-circle'
            }
            aria-hidden="true"
          />
          <Link
            to={
              item.to ??
              (item.reason
                ? `${paths.fileResponses(fileId)}?reason=${item.reason}`
                : paths.fileResponses(fileId))
            }
          >
            {item.text}
          </Link>
        </li>
      ))}
    </ul>
  );
}
