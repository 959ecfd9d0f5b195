// Review's mends of one page (DESIGN §4 "Identity"): keep a flagged page where it is, move it to
// another response of the file, start a new response at it, or type the code printed beside its
// QR code. Each is one PATCH /api/pages/{id}; the server records who did it and clears the flag.
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient, useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { useUpdatePage } from '../../../generated/hooks/pages/pages';
import type { AnswerSheet, Page, PagePatch } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { answerSheetQueries, invalidateAnswerSheetsAndFiles } from '../../lib/queries';

/** The most responses the move picker lists (the contract's largest page). */
const SHEETS_IN_PICKER = 100;

export function sheetLabel(sheet: Pick<AnswerSheet, 'student' | 'lesson'>, index: number): string {
  const who = sheet.student
    ? `Student ${sheet.student.human_id}${sheet.student.name ? ` (${sheet.student.name})` : ''}`
    : 'No student';
  return `Response ${index + 1}: ${who}, ${sheet.lesson?.name ?? 'no lesson'}`;
}

function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const detail = (error.body as { detail?: { message?: string } | string } | undefined)?.detail;
    if (typeof detail === 'string') return detail;
    if (detail?.message) return detail.message;
  }
  return 'The change could not be saved. Please try again.';
}

export interface PageMendsProps {
  page: Page;
  /** The page starts its response: "Start New Response Here" is not offered. */
  first: boolean;
  /** The response's only page: moving it away removes the response. */
  only: boolean;
  onNewResponse?: ((responseId: string, pageNumber: number) => void) | undefined;
}

export function PageMends({ page, first, only, onNewResponse }: PageMendsProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const update = useUpdatePage();
  const [target, setTarget] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const moveId = useId();
  const codeId = useId();
  const fileId = page.file_id ?? '';
  const sheets = useQuery({ ...answerSheetQueries.list({ file: fileId, limit: SHEETS_IN_PICKER }), enabled: fileId !== '' });
  const ownSheet = page.answer_sheet?.id ?? null;
  const options = (sheets.data?.items ?? [])
    .map((sheet, index) => ({ value: sheet.id, label: sheetLabel(sheet, index) }))
    .filter((option) => option.value !== ownSheet);

  const save = (data: PagePatch, then?: (saved: Page) => void) =>
    update.mutate(
      { pageId: page.id, data },
      {
        onSuccess: (saved) => {
          void invalidateAnswerSheetsAndFiles(queryClient);
          then?.(saved);
        },
      },
    );

  return (
    <div className="page-mends" aria-label={`Mend page ${page.page_number}`} role="group">
      {page.flagged && ownSheet && (
        <Button
          type="button"
          label="Keep Page Here"
          icon="pi pi-check"
          size="small"
          outlined
          disabled={update.isPending}
          onClick={() => save({ answer_sheet: ownSheet })}
        />
      )}
      <div className="page-mend-row">
        <label htmlFor={moveId}>Move to response</label>
        <Dropdown
          inputId={moveId}
          value={target}
          options={options}
          optionValue="value"
          optionLabel="label"
          filter
          filterInputAutoFocus={false}
          placeholder="Choose a response of this file"
          loading={sheets.isLoading}
          onChange={(event) => setTarget((event.value as string | null) ?? null)}
        />
        <Button
          type="button"
          label="Move Page"
          size="small"
          disabled={target === null || update.isPending}
          onClick={() =>
            target &&
            save({ answer_sheet: target }, () =>
              only ? navigate(paths.response(target)) : setTarget(null),
            )
          }
        />
      </div>
      <div className="page-mend-row">
        <label htmlFor={codeId}>Code beside the QR code</label>
        <InputText
          id={codeId}
          value={code}
          placeholder="e.g. S-ABCD2345"
          onChange={(event) => setCode(event.target.value)}
        />
        <Button
          type="button"
          label="Use Code"
          size="small"
          disabled={code.trim() === '' || update.isPending}
          onClick={() => save({ code: code.trim() }, () => setCode(''))}
        />
      </div>
      {!first && (
        <Button
          type="button"
          label="Start New Response Here"
          icon="pi pi-clone"
          size="small"
          text
          disabled={update.isPending}
          onClick={() =>
            save({ new_sheet: true }, (saved) => saved.answer_sheet && onNewResponse?.(saved.answer_sheet.id, saved.page_number))
          }
        />
      )}
      {update.isError && <Message severity="error" text={errorText(update.error)} />}
    </div>
  );
}
