// A duplicate response (its student's lesson was already received) holds its file in Review until
// a person decides: keep it (PATCH keep_duplicate: it is sent like any other) or ignore its pages.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import {
  getGetAnswerSheetQueryKey,
  useUpdateAnswerSheet,
} from '../../../generated/hooks/answer-sheets/answer-sheets';
import { updatePage } from '../../../generated/hooks/pages/pages';
import type { AnswerSheet, Page } from '../../../generated/hooks/model';
import { invalidateAnswerSheetsAndFiles } from '../../lib/queries';

export const DUPLICATE_QUESTION =
  'This response repeats a lesson this student already sent. Keep it (it is sent like any other response) or ignore its pages.';
export const KEEP_RESPONSE = 'Keep Response';
export const IGNORE_ITS_PAGES = 'Ignore Its Pages';
export const DUPLICATE_KEPT = 'Kept: this duplicate is sent like any other response.';
export const DECISION_FAILED = 'The decision could not be saved. Please try again.';

export function DuplicateDecision({ response, pages }: { response: AnswerSheet; pages: readonly Page[] }) {
  const queryClient = useQueryClient();
  const keep = useUpdateAnswerSheet();
  const [ignoring, setIgnoring] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!response.duplicate) return null;
  if (response.duplicate_kept) return <Message severity="info" text={DUPLICATE_KEPT} />;
  const kept = pages.filter((page) => !page.ignored);
  if (kept.length === 0) return null;

  const ignoreAll = async () => {
    setIgnoring(true);
    setFailed(false);
    try {
      for (const page of kept) await updatePage(page.id, { ignored: true });
    } catch (error) {
      console.error('ignore pages failed:', error);
      setFailed(true);
    } finally {
      setIgnoring(false);
      void invalidateAnswerSheetsAndFiles(queryClient);
    }
  };

  return (
    <div className="response-duplicate" role="group" aria-label="Duplicate response">
      <Message severity="warn" text={DUPLICATE_QUESTION} />
      <div className="form-actions">
        <Button
          type="button"
          label={KEEP_RESPONSE}
          icon="pi pi-check"
          size="small"
          loading={keep.isPending}
          disabled={ignoring}
          onClick={() =>
            keep.mutate(
              { sheetId: response.id, data: { keep_duplicate: true } },
              {
                onSuccess: (updated) => {
                  queryClient.setQueryData(getGetAnswerSheetQueryKey(response.id), updated);
                  void invalidateAnswerSheetsAndFiles(queryClient);
                },
              },
            )
          }
        />
        <Button
          type="button"
          label={IGNORE_ITS_PAGES}
          icon="pi pi-eye-slash"
          size="small"
          outlined
          loading={ignoring}
          disabled={keep.isPending}
          onClick={() => void ignoreAll()}
        />
      </div>
      {(keep.isError || failed) && <Message severity="error" text={DECISION_FAILED} />}
    </div>
  );
}
