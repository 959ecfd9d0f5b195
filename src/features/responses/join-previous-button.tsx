// Review's mend of a whole response: join it to the response before it in the file (its pages
// move there; a new student made for it by mistake goes too). One PATCH /api/answer-sheets/{id}.
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useUpdateAnswerSheet } from '../../../generated/hooks/answer-sheets/answer-sheets';
import type { AnswerSheet } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';
import { invalidateAnswerSheetsAndFiles } from '../../lib/queries';

export const JOIN_PREVIOUS_LABEL = 'Join to Previous Response';

export function JoinPreviousButton({ response }: { response: Pick<AnswerSheet, 'id'> }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const update = useUpdateAnswerSheet();
  return (
    <div className="response-join">
      <Button
        type="button"
        label={JOIN_PREVIOUS_LABEL}
        icon="pi pi-link"
        size="small"
        outlined
        loading={update.isPending}
        onClick={() =>
          update.mutate(
            { sheetId: response.id, data: { join_previous: true } },
            {
              onSuccess: (joined) => {
                void invalidateAnswerSheetsAndFiles(queryClient);
                navigate(paths.response(joined.id));
              },
            },
          )
        }
      />
      {update.isError && (
        <Message
          severity="error"
          text="This response could not be joined to the one before it (it may be the file's first)."
        />
      )}
    </div>
  );
}
