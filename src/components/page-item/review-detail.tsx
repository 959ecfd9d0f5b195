// What Review knows beside a page's flag (DESIGN §4 "Placing a page by position, and paper seen
// twice"): the sheets a page could belong to, each one click away; the page it is the same paper
// as; the pages its response lacks; what its printed text says when no code was read.
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Button } from 'primereact/button';
import { useUpdatePage } from '../../../generated/hooks/pages/pages';
import type { Page } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';
import { invalidateAnswerSheetsAndFiles } from '../../lib/queries';
import { suggestionText } from './printed-text';

export function ReviewDetail({ page, canMend }: { page: Page; canMend: boolean }) {
  const queryClient = useQueryClient();
  const update = useUpdatePage();
  const detail = page.review_detail;
  if (!detail || !page.flagged) return null;

  if (detail.candidate_sheets && detail.candidate_sheets.length > 0)
    return (
      <div
        className="page-item-candidates"
        role="group"
        aria-label={`Responses page ${page.page_number} could belong to`}
      >
        <p>Could belong to:</p>
        <ul>
          {detail.candidate_sheets.map((sheet) => {
            const who = sheet.student ? `Student ${sheet.student.human_id}` : 'no student yet';
            const here = sheet.id === page.answer_sheet?.id;
            return (
              <li key={sheet.id}>
                <Link to={paths.response(sheet.id)}>{`Response ${sheet.number} (${who})`}</Link>
                {here && <span> (here now)</span>}
                {canMend && (
                  <Button
                    type="button"
                    size="small"
                    text
                    label={here ? 'Keep It Here' : `Move to Response ${sheet.number}`}
                    disabled={update.isPending}
                    onClick={() =>
                      update.mutate(
                        { pageId: page.id, data: { answer_sheet: sheet.id } },
                        { onSuccess: () => void invalidateAnswerSheetsAndFiles(queryClient) },
                      )
                    }
                  />
                )}
              </li>
            );
          })}
        </ul>
      </div>
    );

  if (detail.copy_of) {
    const sameFile = detail.copy_of.file_id === page.file_id;
    return (
      <div className="page-item-copy">
        <p>
          {sameFile
            ? 'The same paper as '
            : `Already uploaded in file “${detail.copy_of.file_name}” as `}
          <Link to={paths.page(detail.copy_of.page_id)}>{`page ${detail.copy_of.page_number}`}</Link>
          {sameFile ? ' of this file.' : '.'}
          {detail.copy_of.student_taken && ' This response took that page’s student.'}
        </p>
        {canMend && detail.copy_of.student_taken && (
          <p>
            {'Not the same paper? '}
            <Button
              type="button"
              size="small"
              text
              label="New Student"
              aria-label="New Student for this response"
              disabled={update.isPending}
              onClick={() =>
                update.mutate(
                  { pageId: page.id, data: { new_student: true } },
                  { onSuccess: () => void invalidateAnswerSheetsAndFiles(queryClient) },
                )
              }
            />
          </p>
        )}
      </div>
    );
  }

  const suggestion = detail.printed_text_suggestion;
  if (suggestion) {
    const read = suggestionText(suggestion);
    const one = suggestion.codes.length === 1;
    const take = (code: string) =>
      update.mutate(
        { pageId: page.id, data: { code } },
        { onSuccess: () => void invalidateAnswerSheetsAndFiles(queryClient) },
      );
    return (
      <div className="page-item-suggestion" role="group" aria-label={`What page ${page.page_number} says in print`}>
        <p>
          {one
            ? `Looks like ${read}: use this?`
            : suggestion.codes.length === 0
              ? `The printed text reads ${read}, but no sheet issued fits it.`
              : `Looks like ${read}, which fits more than one sheet:`}
        </p>
        {canMend && suggestion.codes.length > 0 && (
          <ul>
            {suggestion.codes.map((code) => (
              <li key={code}>
                <Button
                  type="button"
                  size="small"
                  text
                  label={one ? 'Use This' : `Use ${code}`}
                  disabled={update.isPending}
                  onClick={() => take(code)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  if (detail.missing_pages && detail.missing_pages.length > 0)
    return (
      <p className="page-item-missing">{`Page ${detail.missing_pages.join(' and ')} missing from this response.`}</p>
    );
  return null;
}
