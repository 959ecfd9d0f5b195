// /students/{student_id}/ (spec §2): "Back to Students", the Student card, the Details card with
// the student's uploads, and the editable Attributes form; an unknown student shows
// "Sorry, can't find student {id}".
import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import {
  getGetStudentQueryKey,
  useGetStudent,
  useUpdateStudent,
} from '../../../generated/hooks/students/students';
import type { StudentAttributes } from '../../../generated/hooks/model';
import { BackLink } from '../../components/page-layout/back-link';
import { Panel } from '../../components/page-layout/panel';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { isRefused, notAvailable } from '../../lib/refusal';
import { StudentAttributesForm } from './student-attributes-form';
import { StudentCard } from './student-card';
import { StudentUploads } from './student-uploads';

export const studentNotFound = (id: string) => `Sorry, can't find student ${id}`;
export const STUDY_HELPER_HINT = 'Chosen on the Student card.';
const HELPER_FROM_CARD = ['study_helper'] as const;

export default function StudentDetail() {
  const id = useParams<'student_id'>().student_id ?? '';
  const student = useGetStudent(id);
  const queryClient = useQueryClient();
  const update = useUpdateStudent();
  // One source for the study helper: the Student card's choice, shown (read-only) in the form.
  const saved = student.data?.attributes;
  const helperName = student.data?.study_helper?.name ?? '';
  const attributes = useMemo(() => (saved === undefined ? undefined : { ...saved, study_helper: helperName }), [saved, helperName]);

  const back = <BackLink to={paths.students()} label="Back to Students" />;
  if (student.isLoading) return <Loading />;
  if (!student.data || attributes === undefined) {
    const missing = student.error instanceof ApiError && (student.error.status === 404 || student.error.status === 400);
    return (
      <>
        {back}
        <PageHeader title={missing ? studentNotFound(id) : isRefused(student.error) ? notAvailable('student') : 'Could not load this student.'} />
      </>
    );
  }

  const saveAttributes = async (attributes: StudentAttributes) => {
    const saved = await update.mutateAsync({ id, data: { attributes } });
    queryClient.setQueryData(getGetStudentQueryKey(id), saved);
  };

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
          <StudentAttributesForm
            attributes={attributes}
            onSave={saveAttributes}
            readOnly={HELPER_FROM_CARD}
            hints={{ study_helper: STUDY_HELPER_HINT }}
          />
        </Panel>
      </div>
    </>
  );
}
