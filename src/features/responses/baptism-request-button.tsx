// Flags a response as a baptism request (spec §4): "Baptism Request" asks first (it cannot be
// undone here), then sends POST /api/responses/{id}/baptism-request; once flagged the button
// reads "Baptism Request Submitted" and stays disabled (one way).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { useFlagAnswerSheetBaptismRequest } from '../../../generated/hooks/baptism/baptism';
import { getGetAnswerSheetQueryKey } from '../../../generated/hooks/answer-sheets/answer-sheets';
import type { AnswerSheet } from '../../../generated/hooks/model';

export const BAPTISM_REQUEST = 'Baptism Request';
export const BAPTISM_REQUEST_SUBMITTED = 'Baptism Request Submitted';
export const BAPTISM_REQUEST_QUESTION =
  "Submit a baptism request for this response's student? The request goes to the Baptism Requests list and cannot be withdrawn here.";

export function BaptismRequestButton({
  response,
}: {
  response: Pick<AnswerSheet, 'id' | 'is_baptism_request'>;
}) {
  const queryClient = useQueryClient();
  const flag = useFlagAnswerSheetBaptismRequest();
  const flagged = response.is_baptism_request || flag.isSuccess;
  const [asking, setAsking] = useState(false);
  const submit = () =>
    flag.mutate(
      { responseId: response.id },
      {
        onSuccess: (updated) => {
          queryClient.setQueryData(getGetAnswerSheetQueryKey(response.id), updated);
          void queryClient.invalidateQueries({ queryKey: ['/api/baptism-requests'] });
        },
        onError: (error) => console.error('baptism request failed:', error),
      },
    );
  return (
    <>
      <Button
        type="button"
        label={flagged ? BAPTISM_REQUEST_SUBMITTED : BAPTISM_REQUEST}
        icon={flagged ? 'pi pi-check' : 'pi pi-heart'}
        severity="secondary"
        outlined={!flagged}
        disabled={flagged || flag.isPending}
        loading={flag.isPending}
        onClick={() => setAsking(true)}
      />
      <ConfirmDialog
        visible={asking}
        onHide={() => setAsking(false)}
        header={BAPTISM_REQUEST}
        message={BAPTISM_REQUEST_QUESTION}
        icon="pi pi-question-circle"
        acceptLabel="Submit Request"
        rejectLabel="Cancel"
        accept={submit}
      />
    </>
  );
}
