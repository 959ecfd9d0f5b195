// /responses/{response_id}/student-info (spec §2): the response's student's attributes, editable
// except Country, Recruiter and Recruiting Point (read-only here); a back link to the file's
// responses, the file's tabs and quick links.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { Message } from 'primereact/message';
import { useGetStudent } from '../../../generated/hooks/students/students';
import type { AnswerSheet } from '../../../generated/hooks/model';
import { StudentAttributesForm } from '../../components/student-attributes/student-attributes-form';
import type { AttributeKey } from '../../components/student-attributes/student-attributes';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { isRefused, notAvailable } from '../../lib/refusal';
import { FileTabs } from '../../components/file-tabs/file-tabs';
import { answerSheetQueries } from '../../lib/queries';
import { BackToResponses, NO_RESPONSE_FOUND } from './response-detail';
import './responses.css';

/** Read-only on this screen (spec §2). */
export const STUDENT_INFO_READ_ONLY: readonly AttributeKey[] = [
  'country',
  'recruiter',
  'recruiting_point',
];

function QuickLinks({ response }: { response: AnswerSheet }) {
  return (
    <nav className="response-quick-links" aria-label="Quick links">
      <Link to={paths.response(response.id)}>Response</Link>
      {response.student && <Link to={paths.student(response.student.id)}>Student</Link>}
      <Link to={paths.file(response.file_id)}>File</Link>
    </nav>
  );
}

function StudentAttributes({ studentId }: { studentId: string }) {
  const student = useGetStudent(studentId);
  if (student.error) return <Message severity="error" text="The student could not be loaded." />;
  if (!student.data) return <Loading label="Loading student" />;
  return (
    <section className="response-card" aria-labelledby="student-attributes-title">
      <h2 id="student-attributes-title">{`Student ${student.data.human_id}`}</h2>
      <StudentAttributesForm
        key={student.data.id}
        student={student.data}
        readOnly={STUDENT_INFO_READ_ONLY}
      />
    </section>
  );
}

export default function ResponseStudentInfo() {
  const responseId = useParams().response_id ?? '';
  const response = useQuery(answerSheetQueries.detail(responseId));
  if (response.error) {
    const notFound = response.error instanceof ApiError && response.error.status === 404;
    return <PageHeader title={notFound ? NO_RESPONSE_FOUND : isRefused(response.error) ? notAvailable('response') : 'The response could not be loaded.'} />;
  }
  if (!response.data) return <Loading />;
  const sheet = response.data;
  return (
    <>
      <BackToResponses fileId={sheet.file_id} />
      <PageHeader title={routes.responseStudentInfo.title} subtitle={sheet.file.name} />
      <FileTabs fileId={sheet.file_id} />
      <QuickLinks response={sheet} />
      {sheet.student ? (
        <StudentAttributes studentId={sheet.student.id} />
      ) : (
        <Message severity="warn" text="This response has no student yet." />
      )}
    </>
  );
}
