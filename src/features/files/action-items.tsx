// The warnings of a file (GET /api/file/{id}/stats), each a link to the file's responses
// (spec §2 "Action Items", §4 "Review: warnings link to the responses").
import { Link } from 'react-router-dom';
import type { FileStats } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';

export interface ActionItem {
  key: keyof FileStats;
  text: string;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const WARNINGS: readonly { key: keyof FileStats; one: string; many: string }[] = [
  { key: 'unrecognized', one: 'unrecognized page', many: 'unrecognized pages' },
  { key: 'mismatched', one: 'mismatched page', many: 'mismatched pages' },
  { key: 'missing_lesson', one: 'response without a lesson', many: 'responses without a lesson' },
  { key: 'missing_student', one: 'response without a student', many: 'responses without a student' },
  { key: 'duplicates', one: 'duplicate response', many: 'duplicate responses' },
  { key: 'unassigned', one: 'response without a congregation', many: 'responses without a congregation' },
  { key: 'ignored', one: 'ignored page', many: 'ignored pages' },
];

/** One item per warning with a count above zero, in the order a reviewer deals with them. */
export function actionItems(stats: FileStats): ActionItem[] {
  return WARNINGS.filter((warning) => stats[warning.key] > 0).map((warning) => ({
    key: warning.key,
    text: plural(stats[warning.key], warning.one, warning.many),
  }));
}

export const NO_ACTION_ITEMS = 'No action items';

export function ActionItemLinks({ fileId, stats, label }: { fileId: string; stats: FileStats | undefined; label: string }) {
  if (!stats) return null;
  const items = actionItems(stats);
  if (items.length === 0) return <p className="action-items-none">{NO_ACTION_ITEMS}</p>;
  return (
    <ul className="action-items" aria-label={label}>
      {items.map((item) => (
        <li key={item.key}>
          <span className="pi pi-exclamation-triangle" aria-hidden="true" />
          <Link to={paths.fileResponses(fileId)}>{item.text}</Link>
        </li>
      ))}
    </ul>
  );
}
