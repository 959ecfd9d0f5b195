// One page of a response (spec §2 "Page item"): its thumbnail, the lesson its code names (or
// "Unrecognized"), its congregation, a page-template picker flagged "Mismatched" when the page's
// template belongs to another lesson than the response's, "Ignore Page" / "Unignore Page", Turn
// Left / Right (a sideways scan) and an expandable full preview. Without a response lesson it asks to "Set Response Template First".
// A page Review must look at says why, what to do, and offers the mends (page-mends.tsx).
import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { getGetPagePhotoUrl, getGetPagePreviewUrl, useUpdatePage } from '../../../generated/hooks/pages/pages';
import { useListCoursePages } from '../../../generated/hooks/reference/reference';
import type { AnswerSheet, Page, PagePatch, PageTemplate } from '../../../generated/hooks/model';
import { StatusTag } from '../status-tag/status-tag';
import { invalidateAnswerSheetsAndFiles } from '../../lib/queries';
import { PageMends } from './page-mends';
import { PAGE_ITEM_THUMBNAIL, PageThumbnail } from './page-thumbnail';
import { READ_FROM_PRINTED_TEXT } from './printed-text';
import { ReviewDetail } from './review-detail';
import { REVIEW_REASON_HINT, REVIEW_REASON_LABEL } from './review-reasons';
import './pages.css';

export const UNRECOGNIZED = 'Unrecognized';
export const MISMATCHED = 'Mismatched';
export const SET_RESPONSE_TEMPLATE_FIRST = 'Set Response Template First';

/** The page's template belongs to another lesson than the response's (spec §2). */
export function isMismatched(
  page: Pick<Page, 'template'>,
  responseLessonId: string | null | undefined,
): boolean {
  if (!page.template || !responseLessonId) return false;
  return page.template.lesson.id !== responseLessonId;
}

export function templateLabel(
  template: Pick<PageTemplate, 'name' | 'page_number' | 'lesson'>,
): string {
  return template.name || `${template.lesson.name}, page ${template.page_number}`;
}

export interface PageItemProps {
  page: Page;
  /** The response the page belongs to (its lesson and course). */
  response: Pick<AnswerSheet, 'lesson' | 'course'>;
  /** Where the page stands in its response, for the mends; without it (a sent file) none are offered. */
  mends?: { first: boolean; only: boolean };
  /** Told the new response's id after "Start New Response Here" (the page leaves this response). */
  onNewResponse?: (responseId: string, pageNumber: number) => void;
}

/** A page's image address, new after each turn so no cache shows it as it was. */
export function pagePreviewUrl(page: Pick<Page, 'id' | 'turns'>): string {
  return getGetPagePreviewUrl(page.id, page.turns ? { turns: page.turns } : undefined);
}

function formatMended(at: string): string {
  return new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

function TemplatePicker({
  page,
  courseId,
  onChange,
  disabled,
}: {
  page: Page;
  courseId: string;
  onChange: (id: string | null) => void;
  disabled: boolean;
}) {
  const id = useId();
  const templates = useListCoursePages(courseId, { query: { enabled: courseId !== '' } });
  const options = (templates.data ?? []).map((template) => ({
    value: template.id,
    label: templateLabel(template),
  }));
  if (page.template && !options.some((option) => option.value === page.template?.id)) {
    options.unshift({ value: page.template.id, label: templateLabel(page.template) });
  }
  return (
    <div className="page-item-field">
      <label htmlFor={id}>Page template</label>
      <Dropdown
        inputId={id}
        value={page.template?.id ?? null}
        options={options}
        optionValue="value"
        optionLabel="label"
        filter
        showClear
        placeholder="Choose the page template"
        loading={templates.isLoading}
        disabled={disabled}
        onChange={(event) => onChange((event.value as string | null) ?? null)}
      />
    </div>
  );
}

/** The page's number and its tags: blank back or ignored, the review reason, mismatched, read from print. */
function PageTitle({ page, mismatched }: { page: Page; mismatched: boolean }) {
  const reason = page.review_reason ?? null;
  const blankBack = reason === 'blank_back';
  return (
    <h3 className="page-item-title">
      {`Page ${page.page_number}`}
      {blankBack ? (
        <StatusTag value={REVIEW_REASON_LABEL.blank_back} severity="secondary" />
      ) : (
        page.ignored && <StatusTag value="Ignored" severity="secondary" />
      )}
      {reason && !blankBack && (
        <StatusTag
          value={REVIEW_REASON_LABEL[reason]}
          severity={page.flagged ? 'warning' : 'secondary'}
        />
      )}
      {mismatched && <StatusTag value={MISMATCHED} severity="danger" />}
      {page.identified_by === 'printed_text' && <StatusTag value={READ_FROM_PRINTED_TEXT} severity="info" />}
    </h3>
  );
}

/** A photographed page: the photo as the phone took it, to compare with the straightened page. */
function PagePhoto({ page }: { page: Page }) {
  return (
    <a className="page-item-photo" href={getGetPagePhotoUrl(page.id)} target="_blank" rel="noreferrer">
      <img src={getGetPagePhotoUrl(page.id)} alt={`Photo of page ${page.page_number} as taken`} loading="lazy" />
      Photo as taken
    </a>
  );
}

function PageFacts({ page }: { page: Page }) {
  const blankBack = page.review_reason === 'blank_back';
  const recognised =
    page.template?.lesson.name ?? (blankBack ? REVIEW_REASON_LABEL.blank_back : UNRECOGNIZED);
  return (
    <dl className="page-item-facts">
      <div>
        <dt>Lesson</dt>
        <dd>{recognised}</dd>
      </div>
      <div>
        <dt>Congregation</dt>
        <dd>{page.answer_sheet?.congregation?.wbs_code ?? '—'}</dd>
      </div>
    </dl>
  );
}

/** Saves a change to the page; every answer sheet, page and file may show it. */
function useSavePage(pageId: string) {
  const queryClient = useQueryClient();
  const update = useUpdatePage();
  const save = (data: PagePatch) =>
    update.mutate(
      { pageId, data },
      {
        onSuccess: () => void invalidateAnswerSheetsAndFiles(queryClient),
        onError: (error) => console.error('page save failed:', error),
      },
    );
  return { save, saving: update.isPending };
}

interface PageActionsProps {
  page: Page;
  canMend: boolean;
  saving: boolean;
  save: (data: PagePatch) => void;
  expanded: boolean;
  onToggle: () => void;
}

/** Ignore, the quarter turns of a page in doubt, and the preview toggle. */
function PageActions({ page, canMend, saving, save, expanded, onToggle }: PageActionsProps) {
  return (
    <div className="page-item-actions">
      {canMend && (
        <Button
          type="button"
          label={page.ignored ? 'Unignore Page' : 'Ignore Page'}
          icon={page.ignored ? 'pi pi-eye' : 'pi pi-eye-slash'}
          outlined
          size="small"
          loading={saving}
          onClick={() => save({ ignored: !page.ignored })}
        />
      )}
      {canMend && !page.ignored && (page.flagged || page.unrecognized_reason) && (
        <>
          <Button
            type="button"
            label="Turn Left"
            icon="pi pi-replay"
            outlined
            size="small"
            disabled={saving}
            aria-label={`Turn page ${page.page_number} a quarter turn left`}
            onClick={() => save({ turn: 270 })}
          />
          <Button
            type="button"
            label="Turn Right"
            icon="pi pi-refresh"
            outlined
            size="small"
            disabled={saving}
            aria-label={`Turn page ${page.page_number} a quarter turn right`}
            onClick={() => save({ turn: 90 })}
          />
        </>
      )}
      <Button
        type="button"
        label={expanded ? 'Hide Preview' : 'Show Preview'}
        icon={expanded ? 'pi pi-chevron-up' : 'pi pi-chevron-down'}
        text
        size="small"
        aria-expanded={expanded}
        onClick={onToggle}
      />
    </div>
  );
}

/** A flagged page shows its mends at once; another offers them on request. */
function MendsOrOffer({ page, mends, onNewResponse, mending, onMend }: Pick<PageItemProps, 'page' | 'onNewResponse'> & { mends: NonNullable<PageItemProps['mends']>; mending: boolean; onMend: () => void }) {
  if (page.flagged || mending) {
    return <PageMends page={page} first={mends.first} only={mends.only} onNewResponse={onNewResponse} />;
  }
  return (
    <Button
      type="button"
      label="Move or Split…"
      icon="pi pi-arrows-h"
      text
      size="small"
      className="page-item-mend-open"
      onClick={onMend}
    />
  );
}

export function PageItem({ page, response, mends, onNewResponse }: PageItemProps) {
  const [expanded, setExpanded] = useState(false);
  // Kept here: a page ignored and taken back keeps its opened mends.
  const [mending, setMending] = useState(false);
  const { save, saving } = useSavePage(page.id);
  const lessonId = response.lesson?.id ?? null;
  const courseId = response.course?.id ?? response.lesson?.course_id ?? '';
  const reason = page.review_reason ?? null;

  return (
    <article
      className={`page-item${page.ignored ? ' page-item-ignored' : ''}`}
      aria-label={`Page ${page.page_number}`}
    >
      <PageThumbnail pageId={page.id} size={PAGE_ITEM_THUMBNAIL} alt={`Page ${page.page_number}`} turns={page.turns} />
      <div className="page-item-body">
        <PageTitle page={page} mismatched={isMismatched(page, lessonId)} />
        {/* What to do is the mending admin's: a coordinator (no mends) reads the reason alone. */}
        {reason && reason !== 'blank_back' && page.flagged && mends && (
          <p className="page-item-reason">{REVIEW_REASON_HINT[reason]}</p>
        )}
        <ReviewDetail page={page} canMend={!!mends} />
        {page.mended && (
          <p className="page-item-mended">{`Mended by ${page.mended.by}, ${formatMended(page.mended.at)}`}</p>
        )}
        {page.has_photo && <PagePhoto page={page} />}
        <PageFacts page={page} />
        {mends &&
          (lessonId ? (
            <TemplatePicker page={page} courseId={courseId} disabled={saving} onChange={(template) => save({ template })} />
          ) : (
            <p className="page-item-hint">{SET_RESPONSE_TEMPLATE_FIRST}</p>
          ))}
        <PageActions
          page={page}
          canMend={!!mends}
          saving={saving}
          save={save}
          expanded={expanded}
          onToggle={() => setExpanded((open) => !open)}
        />
        {mends && !page.ignored && (
          <MendsOrOffer page={page} mends={mends} onNewResponse={onNewResponse} mending={mending} onMend={() => setMending(true)} />
        )}
      </div>
      {expanded && (
        <img
          className="page-item-preview"
          src={pagePreviewUrl(page)}
          alt={`Full preview of page ${page.page_number}`}
        />
      )}
    </article>
  );
}
