// What the two scan pages of a student's upload share: the back link to the student, a heading
// naming the lesson and upload time, and the loading and missing states of the answer sheet.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import type { AnswerSheet, Page } from '../../../generated/hooks/model';
import { BackLink } from '../../components/page-layout/back-link';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { formatDateTime } from '../../lib/format';
import '../../components/page-layout/page-layout.css';
import { answerSheetQueries } from '../../lib/queries';

export const ANSWER_SHEET_NOT_FOUND = 'This upload could not be found.';

export function lessonName(sheet: Pick<AnswerSheet, 'lesson'> | undefined): string {
  return sheet?.lesson?.name ?? 'Unrecognized';
}

export interface AnswerSheetScansProps {
  title: string;
  /** The scans of the sheet's pages, once they are loaded. */
  children: (pages: Page[], sheet: AnswerSheet) => ReactNode;
}

export function AnswerSheetScans({ title, children }: AnswerSheetScansProps) {
  const { student_id: studentId = '', upload_id: uploadId = '' } = useParams<'student_id' | 'upload_id'>();
  const sheet = useQuery(answerSheetQueries.detail(uploadId));
  const pages = useQuery(answerSheetQueries.pages(uploadId));
  const back = <BackLink to={paths.student(studentId)} label="Back to Student" />;

  if (sheet.isLoading || pages.isLoading) return <Loading />;
  if (!sheet.data || !pages.data) {
    return (
      <>
        {back}
        <PageHeader title={title} />
        <p role="alert">{ANSWER_SHEET_NOT_FOUND}</p>
      </>
    );
  }
  const subtitle = `Lesson: ${lessonName(sheet.data)} · Time: ${formatDateTime(sheet.data.file.uploaded_at)}`;
  return (
    <>
      {back}
      <PageHeader title={title} subtitle={subtitle} />
      {children([...pages.data].sort((a, b) => a.page_number - b.page_number), sheet.data)}
    </>
  );
}
