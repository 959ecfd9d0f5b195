// /students/{student_id}/ (spec §2): "Back to Students", the Student card, the Details card with
// the student's uploads, and the editable Attributes form; an unknown student shows
// "Sorry, can't find student {id}".
import { useParams } from 'react-router-dom';
import { useGetStudent } from '../../../generated/hooks/students/students';
import { BackLink } from '../../components/page-layout/back-link';
import { Panel } from '../../components/page-layout/panel';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { isRefused, notAvailable } from '../../lib/refusal';
import { StudentAttributesForm } from '../../components/student-attributes/student-attributes-form';
import { StudentCard } from './student-card';
import { StudentUploads } from './student-uploads';

export const studentNotFound = (id: string) => `Sorry, can't find student ${id}`;

export default function StudentDetail() {
  const id = useParams<'student_id'>().student_id ?? '';
  const student = useGetStudent(id);

  const back = <BackLink to={paths.students()} label="Back to Students" />;
  if (student.isLoading) return <Loading />;
  if (!student.data) {
    const missing = student.error instanceof ApiError && (student.error.status === 404 || student.error.status === 400);
    return (
      <>
        {back}
        <PageHeader title={missing ? studentNotFound(id) : isRefused(student.error) ? notAvailable('student') : 'Could not load this student.'} />
      </>
    );
  }

  return (
    <>
      {back}
      <PageHeader title={routes.student.title} subtitle={student.data.name || undefined} />
      <div className="panel-stack">
        <div className="panel-grid">
          <StudentCard student={student.data} />
          <StudentUploads studentId={id} />
        </div>
        <Panel title="Attributes">
          <StudentAttributesForm student={student.data} />
        </Panel>
      </div>
    </>
  );
}
