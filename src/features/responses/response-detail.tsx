// /responses/{response_id}/ (spec §2), in two variants. In progress: a Details panel (congregation,
// student link, course and congregation pickers, Save), a Print link and the response's pages as
// page items. Completed (graded): "Status: Completed", a Print link, the student ID link and page
// previews. Both carry the baptism request button; an unknown response shows "No response found".
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Message } from 'primereact/message';
import { getPrintAnswerSheetUrl } from '../../../generated/hooks/answer-sheets/answer-sheets';
import { getGetPageGradedPreviewUrl } from '../../../generated/hooks/pages/pages';
import type { AnswerSheet, Page } from '../../../generated/hooks/model';
import { BackLink } from '../../components/page-layout/back-link';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { isRefused, notAvailable } from '../../lib/refusal';
import { PageItem, pagePreviewUrl } from '../../components/page-item/page-item';
import { ReviewComplete } from '../../components/review-complete/review-complete';
import { answerSheetQueries } from '../../lib/queries';
import { DuplicateDecision } from './duplicate-decision';
import { JoinPreviousButton } from './join-previous-button';
import { BaptismRequestButton } from './baptism-request-button';
import { ResponseDetails } from './response-details-form';
import './responses.css';

export const NO_RESPONSE_FOUND = 'No response found';
export const STATUS_COMPLETED = 'Status: Completed';
export const BACK_TO_RESPONSES = 'Back to Responses';
export const SENT_FILE_PAGES =
  'This file was sent to study helpers: its pages can no longer be changed or moved.';

export function BackToResponses({ fileId }: { fileId: string }) {
  return <BackLink to={paths.fileResponses(fileId)} label={BACK_TO_RESPONSES} />;
}

function PrintLink({ responseId }: { responseId: string }) {
  return (
    <a
      className="p-button p-button-outlined response-print"
      href={getPrintAnswerSheetUrl(responseId)}
      target="_blank"
      rel="noopener"
    >
      <span className="pi pi-print" aria-hidden="true" />
      <span>Print</span>
    </a>
  );
}

function GradedPreviews({ pages }: { pages: readonly Page[] }) {
  return (
    <div className="response-previews">
      {pages.map((page) => {
        const feedback = page.feedback_pages[0];
        return (
          <figure key={page.id} className="response-preview">
            <img
              src={feedback ? getGetPageGradedPreviewUrl(page.id) : pagePreviewUrl(page)}
              alt={`Page ${page.page_number}${feedback ? ', graded' : ''}`}
              loading="lazy"
            />
            {feedback?.has_back && (
              <img
                src={getGetPageGradedPreviewUrl(page.id, { is_back: true })}
                alt={`Page ${page.page_number}, graded back`}
                loading="lazy"
              />
            )}
            <figcaption>{`Page ${page.page_number}`}</figcaption>
          </figure>
        );
      })}
    </div>
  );
}

/** Said after "Start New Response Here": the page left this response for a new one. */
export function newResponseText(pageNumber: number): string {
  return `Page ${pageNumber} now starts a new response, with the pages after it.`;
}
export const OPEN_NEW_RESPONSE = 'Open the new response';

function ResponseContent({ response }: { response: AnswerSheet }) {
  const pages = useQuery(answerSheetQueries.pages(response.id));
  const [started, setStarted] = useState<{ id: string; pageNumber: number } | null>(null);
  const user = useCurrentUser();
  const sent = response.sent === true;
  // Only an admin mends, and only before Send: then the pages are on paper.
  const mending = isScanningAdmin(user) && !sent;
  const kept = (pages.data ?? []).filter((page) => !page.ignored);
  const subtitle = [response.student?.name, response.file.name].filter(Boolean).join(' · ');
  const actions = (
    <>
      <Link to={paths.responseStudentInfo(response.id)} className="response-link">
        Student Info
      </Link>
      <PrintLink responseId={response.id} />
      <BaptismRequestButton response={response} />
    </>
  );

  if (response.graded) {
    return (
      <>
        <BackToResponses fileId={response.file_id} />
        <PageHeader title={routes.response.title} subtitle={subtitle} actions={actions} />
        <section className="response-card response-completed">
          <p className="response-status">{STATUS_COMPLETED}</p>
          <p>
            Student ID:{' '}
            {response.student ? (
              <Link to={paths.student(response.student.id)}>{response.student.human_id}</Link>
            ) : (
              'No student'
            )}
          </p>
        </section>
        {pages.data ? <GradedPreviews pages={pages.data} /> : <Loading label="Loading pages" />}
      </>
    );
  }

  return (
    <>
      <BackToResponses fileId={response.file_id} />
      <PageHeader title={routes.response.title} subtitle={subtitle} actions={actions} />
      <div className="response-columns">
        <ResponseDetails response={response} />
        <section className="page-list" aria-label="Pages">
          {isScanningAdmin(user) && sent && <Message severity="info" text={SENT_FILE_PAGES} />}
          {isScanningAdmin(user) && <ReviewComplete fileId={response.file_id} />}
          {started && (
            <Message
              severity="success"
              content={
                <span role="status">
                  {`${newResponseText(started.pageNumber)} `}
                  <Link to={paths.response(started.id)}>{OPEN_NEW_RESPONSE}</Link>
                </span>
              }
            />
          )}
          {mending && pages.data && <DuplicateDecision response={response} pages={pages.data} />}
          {mending && <JoinPreviousButton response={response} />}
          {pages.data ? (
            pages.data.length > 0 ? (
              pages.data.map((page) => (
                <PageItem
                  key={page.id}
                  page={page}
                  response={response}
                  {...(mending && {
                    mends: {
                      first: page.id === pages.data?.[0]?.id,
                      only: kept.length === 1 && kept[0]?.id === page.id,
                    },
                    onNewResponse: (id: string, pageNumber: number) => setStarted({ id, pageNumber }),
                  })}
                />
              ))
            ) : (
              <p>This response has no pages.</p>
            )
          ) : pages.error ? (
            <Message severity="error" text="The pages could not be loaded." />
          ) : (
            <Loading label="Loading pages" />
          )}
        </section>
      </div>
    </>
  );
}

export default function ResponseDetail() {
  const responseId = useParams().response_id ?? '';
  const response = useQuery(answerSheetQueries.detail(responseId));
  if (response.error) {
    const notFound = response.error instanceof ApiError && (response.error.status === 404 || response.error.status === 400);
    return <PageHeader title={notFound ? NO_RESPONSE_FOUND : isRefused(response.error) ? notAvailable('response') : 'The response could not be loaded.'} />;
  }
  if (!response.data) return <Loading />;
  // A new response id starts afresh (the new-response message belongs to the one it was said on).
  return <ResponseContent key={response.data.id} response={response.data} />;
}
