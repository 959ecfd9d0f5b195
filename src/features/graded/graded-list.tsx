// /graded (spec §2): one row per graded answer sheet (GET /api/answer-sheets?graded=true): the
// student's human id linking to the student, the student's study helper, the lesson and when the
// first page's feedback arrived, as relative time ("No Pages" for a sheet without pages).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { AnswerSheet, ListAnswerSheetsParams } from '../../../generated/hooks/model';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { useListState } from '../../components/list/use-list-state';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { formatRelativeTime } from '../../lib/format';
import { answerSheetQueries } from '../../lib/queries';

export const GRADED_EMPTY_MESSAGE = 'There are no graded answer sheets to display';
export const NO_PAGES = 'No Pages';

/** The Time Graded cell: the first feedback's time as "5 minutes ago", or "No Pages". */
export function timeGraded(sheet: Pick<AnswerSheet, 'page_count' | 'first_feedback_at'>, now: Date = new Date()): string {
  if (sheet.page_count === 0) return NO_PAGES;
  return formatRelativeTime(sheet.first_feedback_at, now) || '—';
}

const columns: ListColumn<AnswerSheet>[] = [
  {
    id: 'student',
    header: 'Student ID',
    sortKey: 'student',
    cell: (sheet) =>
      sheet.student ? <Link to={paths.student(sheet.student.id)}>{sheet.student.human_id}</Link> : '—',
  },
  { id: 'study-helper', header: 'Study Helper', cell: (sheet) => sheet.student?.study_helper?.name || '—' },
  { id: 'lesson', header: 'Lesson', cell: (sheet) => sheet.lesson?.name || '—' },
  { id: 'time-graded', header: 'Time Graded', sortKey: 'graded_at', cell: (sheet) => timeGraded(sheet) },
];

export default function GradedList() {
  const list = useListState();
  const params: ListAnswerSheetsParams = {
    graded: true,
    skip: list.skip,
    limit: list.limit,
    ...(list.order_by && { order_by: list.order_by as ListAnswerSheetsParams['order_by'] }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const sheets = useQuery(answerSheetQueries.list(params));

  return (
    <>
      <PageHeader title={routes.graded.title} />
      <PagedList
        label="Graded answer sheets"
        columns={columns}
        query={sheets}
        list={list}
        rowKey={(sheet) => sheet.id}
        emptyMessage={GRADED_EMPTY_MESSAGE}
      />
    </>
  );
}
