// The Student card of the student page (spec §2): ID, Country, Recruiter and Recruiting Point,
// the congregation picker (scanning admins only; PATCH {congregation}: the student's responses
// not sent yet move with it, sent ones keep theirs) and the study helper picker (PATCH {study_helper}).
import { useQueryClient } from '@tanstack/react-query';
import { Message } from 'primereact/message';
import { getGetStudentQueryKey, useUpdateStudent } from '../../../generated/hooks/students/students';
import type { Student, StudentPatch } from '../../../generated/hooks/model';
import { CountryFlag } from '../../components/list/country-flag';
import { useNotifications } from '../../components/notifications/notifications-context';
import { Panel } from '../../components/page-layout/panel';
import { CongregationPicker } from '../../components/pickers/congregation-picker';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { StudyHelperPicker } from '../../components/pickers/study-helper-picker';

export const STUDENT_UPDATE_FAILED = 'The change could not be saved. Please try again.';
export const CONGREGATION_MOVE_NOTE = 'Responses not sent yet move with the student; responses already sent keep their congregation.';

/** Said when a new congregation ended the study helper link (a helper belongs to one congregation). */
export function helperRemovedText(helper: string): string {
  return `Congregation saved. ${helper} is no longer the study helper: a study helper belongs to one congregation. Choose one of the new congregation's helpers.`;
}

/** The student's own recruiter and point; failing those, the ones of the latest answer sheet's file. */
export function recruiterOf(student: Student): string {
  return student.recruiter?.name ?? student.latest_answer_sheet?.file.recruiter?.name ?? '—';
}
export function recruitingPointOf(student: Student): string {
  return student.recruiting_point?.name ?? student.latest_answer_sheet?.file.recruiting_point?.name ?? '—';
}

export function StudentCard({ student }: { student: Student }) {
  const user = useCurrentUser();
  const admin = isScanningAdmin(user);
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const update = useUpdateStudent();

  const patch = (data: StudentPatch, done: string) =>
    update.mutate(
      { id: student.id, data },
      {
        onSuccess: (saved) => {
          queryClient.setQueryData(getGetStudentQueryKey(student.id), saved);
          const helperRemoved = student.study_helper?.name && !saved.study_helper ? student.study_helper.name : null;
          if (helperRemoved !== null && 'congregation' in data) notify(helperRemovedText(helperRemoved), { severity: 'warn', durationMs: 10_000 });
          else notify(done, { severity: 'success' });
        },
      },
    );

  // While a change is on its way, the picker shows the value asked for.
  const pending = update.isPending ? update.variables?.data : undefined;
  const congregationValue =
    pending && 'congregation' in pending ? (pending.congregation ?? undefined) : (student.congregation_id ?? undefined);
  const helperValue =
    pending && 'study_helper' in pending ? (pending.study_helper ?? undefined) : (student.study_helper?.id ?? undefined);

  return (
    <Panel title="Student">
      <dl className="facts">
        <dt>ID</dt>
        <dd>{student.human_id}</dd>
        <dt>Country</dt>
        <dd>
          {student.country ? (
            <span className="picker-option">
              <CountryFlag iso_code={student.country.iso_code} display_name={student.country.display_name} />
              <span>{student.country.display_name}</span>
            </span>
          ) : (
            '—'
          )}
        </dd>
        <dt>Recruiter</dt>
        <dd>{recruiterOf(student)}</dd>
        <dt>Recruiting Point</dt>
        <dd>{recruitingPointOf(student)}</dd>
      </dl>
      <div className="form-grid">
        {admin && (
          <>
            <CongregationPicker
              value={congregationValue}
              placeholder="No congregation"
              onChange={(id) => patch({ congregation: id ?? null }, 'Congregation saved.')}
            />
            <p className="panel-message">{CONGREGATION_MOVE_NOTE}</p>
          </>
        )}
        <StudyHelperPicker
          value={helperValue}
          congregationId={student.congregation_id ?? undefined}
          placeholder="No study helper"
          disabled={update.isPending}
          onChange={(id) => patch({ study_helper: id ?? null }, 'Study helper saved.')}
        />
        {update.isError && <Message severity="error" text={STUDENT_UPDATE_FAILED} />}
      </div>
    </Panel>
  );
}
