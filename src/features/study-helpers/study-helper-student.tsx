// /study-helpers/{helper_id}/students/{student_id}: a student of a study helper. The spec does not
// show its content; it names the student and the helper and links to the student's own page.
import { Link, useParams } from 'react-router-dom';
import { useGetStudent } from '../../../generated/hooks/students/students';
import { useGetStudyHelper } from '../../../generated/hooks/study-helpers/study-helpers';
import { BackLink } from '../../components/page-layout/back-link';
import { Panel } from '../../components/page-layout/panel';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { isRefused, notAvailable } from '../../lib/refusal';

export const studentNotFound = (id: string) => `Sorry, can't find student ${id}`;

export default function StudyHelperStudent() {
  const { helper_id: helperId = '', student_id: studentId = '' } = useParams<'helper_id' | 'student_id'>();
  const student = useGetStudent(studentId);
  const helper = useGetStudyHelper(helperId);

  const back = <BackLink to={paths.studyHelper(helperId)} label="Back to Study Helper" />;
  if (student.isLoading) return <Loading />;
  if (!student.data) {
    const missing = student.error instanceof ApiError && (student.error.status === 404 || student.error.status === 400);
    return (
      <>
        {back}
        <PageHeader title={missing ? studentNotFound(studentId) : isRefused(student.error) ? notAvailable('student') : 'Could not load this student.'} />
      </>
    );
  }
  const s = student.data;
  return (
    <>
      {back}
      <PageHeader title={routes.studyHelperStudent.title} subtitle={helper.data ? `Study helper: ${helper.data.name}` : undefined} />
      <Panel title={s.name || `Student ${s.human_id}`}>
        <dl className="facts">
          <dt>ID</dt>
          <dd>{s.human_id}</dd>
          <dt>Last Completed Lesson</dt>
          <dd>{s.latest_answer_sheet?.lesson?.name ?? '—'}</dd>
        </dl>
        <Link to={paths.student(s.id)}>Open the student&apos;s page</Link>
      </Panel>
    </>
  );
}
