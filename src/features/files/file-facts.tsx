// The file's facts beside its menu: pages, responses, courses, congregations and dates.
import type { File, FileStats } from '../../../generated/hooks/model';
import { ANSWER_SHEET_PAGE_LENGTH_LABELS } from '../../../machines/constants';
import { formatDate } from '../../lib/format';

export function FileFacts({ file, stats }: { file: File; stats: FileStats | undefined }) {
  const facts: [string, string][] = [
    ['Pages', String(stats?.pages ?? file.page_count ?? '—')],
    ['Responses', String(stats?.sheets ?? file.responses_count)],
    ['Courses', file.courses.map((course) => course.name).join(', ') || '—'],
    ['Congregations', file.congregations.map((c) => c.wbs_code).join(', ') || '—'],
    [
      'Page length',
      file.answer_sheet_page_length === undefined
        ? '—'
        : `${file.answer_sheet_page_length} (${ANSWER_SHEET_PAGE_LENGTH_LABELS[file.answer_sheet_page_length]})`,
    ],
    ['Scanned', formatDate(file.scanned_at ?? undefined) || '—'],
    ['Uploaded', formatDate(file.uploaded_at) || '—'],
    ['Sent', formatDate(file.sent_at ?? undefined) || '—'],
  ];
  return (
    <dl className="file-facts">
      {facts.map(([term, value]) => (
        <div key={term} className="file-fact">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
