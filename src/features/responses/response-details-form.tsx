// The Details panel of a response in progress (spec §2): its congregation, a link to its student
// (a response started by hand in Review has none: admins pick it), a course (lesson) picker and
// a congregation picker; Save sends the changed ones with PATCH /api/answer-sheets/{id}. Once
// the response was sent its congregation is fixed: the picker is disabled, with a line saying why.
// A coordinator (PATCH is the admins') reads the facts and what it may do instead.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import {
  getGetAnswerSheetQueryKey,
  useUpdateAnswerSheet,
} from '../../../generated/hooks/answer-sheets/answer-sheets';
import type { AnswerSheet, AnswerSheetPatch } from '../../../generated/hooks/model';
import { CongregationPicker } from '../../components/pickers/congregation-picker';
import { StudentPicker } from '../../components/pickers/student-picker';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { paths } from '../../config/paths';
import { invalidateAnswerSheetsAndFiles } from '../../lib/queries';
import { LessonPicker } from './lesson-picker';
import { isSheetAlreadySent, RESPONSE_CONGREGATION_FIXED } from '../../lib/sent-response';

/** The response's congregation: the assigned one, else the one it was read with. */
export function responseCongregationId(
  response: Pick<AnswerSheet, 'assigned_group' | 'congregation'>,
): string | null {
  return response.assigned_group ?? response.congregation?.id ?? null;
}

export interface ResponseDraft {
  lesson?: string | null;
  congregation?: string | null;
  /** Only for a response without a student (started by hand in Review). */
  student?: string;
}

/** The fields of a PATCH that differ from the response as saved. */
export function answerSheetChanges(
  response: Pick<AnswerSheet, 'assigned_group' | 'congregation' | 'lesson'>,
  draft: ResponseDraft,
): AnswerSheetPatch {
  const patch: AnswerSheetPatch = {};
  if (draft.student) patch.student = draft.student;
  if (draft.lesson !== undefined && draft.lesson !== (response.lesson?.id ?? null))
    patch.lesson = draft.lesson;
  if (draft.congregation !== undefined && draft.congregation !== responseCongregationId(response)) {
    patch.assigned_group = draft.congregation;
  }
  return patch;
}

export const RESPONSE_SAVE_FAILED = 'The response could not be saved. Please try again.';
export const RESPONSE_COORDINATOR_NOTE =
  'You can print this response, open its student, and submit a baptism request. Its course and congregation are set by a scanning admin.';

function ResponseFacts({ response, course }: { response: AnswerSheet; course?: boolean }) {
  return (
    <dl className="response-facts">
      <div>
        <dt>Congregation</dt>
        <dd>{response.congregation?.wbs_code ?? 'None'}</dd>
      </div>
      <div>
        <dt>Student</dt>
        <dd>
          {response.student ? (
            <Link to={paths.student(response.student.id)}>{response.student.human_id}</Link>
          ) : (
            'No student'
          )}
        </dd>
      </div>
      {course && (
        <div>
          <dt>Course</dt>
          <dd>{response.lesson?.name ?? 'None'}</dd>
        </div>
      )}
    </dl>
  );
}

/** The Details panel: an admin's form, or (PATCH is the admins') the facts and what a coordinator may do. */
export function ResponseDetails({ response }: { response: AnswerSheet }) {
  if (isScanningAdmin(useCurrentUser())) return <ResponseDetailsForm response={response} />;
  return (
    <section className="response-card" aria-labelledby="response-details-title">
      <h2 id="response-details-title">Details</h2>
      <div className="response-details">
        <ResponseFacts response={response} course />
        <p className="response-fixed">{RESPONSE_COORDINATOR_NOTE}</p>
      </div>
    </section>
  );
}

function ResponseDetailsForm({ response }: { response: AnswerSheet }) {
  const queryClient = useQueryClient();
  const sent = response.sent === true;
  const [draft, setDraft] = useState<ResponseDraft>({});
  const update = useUpdateAnswerSheet();
  // A response started by hand in Review has no student yet: an admin names it, before Send.
  const naming = isScanningAdmin(useCurrentUser()) && !sent && response.student === null;
  const changes = answerSheetChanges(response, sent ? { lesson: draft.lesson } : draft);
  const changed = Object.keys(changes).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    update.mutate(
      { sheetId: response.id, data: changes },
      {
        onSuccess: (updated) => {
          queryClient.setQueryData(getGetAnswerSheetQueryKey(response.id), updated);
          void invalidateAnswerSheetsAndFiles(queryClient);
          setDraft({});
        },
        onError: (error) => {
          console.error('response save failed:', error);
          // Sent meanwhile (another tab, another admin): read it again, so the picker shows it fixed.
          if (isSheetAlreadySent(error)) {
            setDraft((current) => ({ lesson: current.lesson }));
            void queryClient.invalidateQueries({ queryKey: getGetAnswerSheetQueryKey(response.id) });
          }
        },
      },
    );
  };

  return (
    <section className="response-card" aria-labelledby="response-details-title">
      <h2 id="response-details-title">Details</h2>
      <form className="response-details" onSubmit={submit}>
        <ResponseFacts response={response} />
        {naming && (
          <StudentPicker
            value={draft.student}
            onChange={(student) => setDraft((current) => ({ ...current, student }))}
            disabled={update.isPending}
          />
        )}
        <LessonPicker
          value={draft.lesson !== undefined ? draft.lesson : (response.lesson?.id ?? null)}
          current={response.lesson}
          onChange={(lesson) => setDraft((current) => ({ ...current, lesson }))}
        />
        <CongregationPicker
          placeholder="Choose a congregation"
          value={(!sent && draft.congregation !== undefined ? draft.congregation : responseCongregationId(response)) ?? undefined}
          disabled={sent}
          onChange={(congregation) => setDraft((current) => ({ ...current, congregation: congregation ?? null }))}
        />
        {(sent || isSheetAlreadySent(update.error)) && <p className="response-fixed">{RESPONSE_CONGREGATION_FIXED}</p>}
        {update.isError && !isSheetAlreadySent(update.error) && <Message severity="error" text={RESPONSE_SAVE_FAILED} />}
        <div className="form-actions">
          <Button
            type="submit"
            label="Save"
            loading={update.isPending}
            disabled={!changed || update.isPending}
          />
        </div>
      </form>
    </section>
  );
}
