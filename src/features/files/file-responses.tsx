// /file/{file_id}/responses (spec §2): the file's responses with columns Student, ID, Course
// (sortable), Congregation and Graded; a row opens the response. A failed file says "Processing
// failed. Please try again."; while the file is processing, the upload job's progress stream
// reloads the list when it completes.
import { useCallback } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useQueryClient, useQuery } from '@tanstack/react-query';
import { Message } from 'primereact/message';
import type {
  AnswerSheet,
  ListAnswerSheetsParams,
  ProgressMessage,
  ReviewReason,
} from '../../../generated/hooks/model';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { useListState } from '../../components/list/use-list-state';
import {
  isProgressFinished,
  progressStreamUrl,
  useProgressStream,
} from '../../components/progress/progress-stream';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { REVIEW_REASON_LABEL } from '../../components/page-item/review-reasons';
import { BackToFiles } from './back-to-files';
import { FileTabs } from '../../components/file-tabs/file-tabs';
import { ReviewComplete } from '../../components/review-complete/review-complete';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import './files.css';
import { isRefused, notAvailable } from '../../lib/refusal';
import { answerSheetQueries, fileQueries, invalidateAnswerSheetsAndFiles } from '../../lib/queries';

export const RESPONSES_EMPTY_MESSAGE = 'There are no responses to display';
export const PROCESSING_FAILED_MESSAGE = 'Processing failed. Please try again.';

const columns: ListColumn<AnswerSheet>[] = [
  {
    id: 'student',
    header: 'Student',
    cell: (sheet) => (
      <>
        <Link to={paths.response(sheet.id)}>
          {sheet.student ? sheet.student.name || 'Unnamed student' : 'No student'}
        </Link>
        {(sheet.flagged_count ?? 0) > 0 && (
          <span className="response-flagged">
            <span className="pi pi-exclamation-triangle" aria-hidden="true" />
            {` ${sheet.flagged_count} ${sheet.flagged_count === 1 ? 'page' : 'pages'} to review`}
          </span>
        )}
        {sheet.duplicate && !sheet.duplicate_kept && !sheet.sent && (
          <span className="response-flagged">
            <span className="pi pi-exclamation-triangle" aria-hidden="true" />
            {' Duplicate: keep it or ignore its pages'}
          </span>
        )}
      </>
    ),
  },
  { id: 'id', header: 'ID', cell: (sheet) => sheet.student?.human_id ?? '—' },
  {
    id: 'course',
    header: 'Course',
    sortKey: 'course',
    cell: (sheet) => sheet.lesson?.name ?? sheet.course?.name ?? '—',
  },
  {
    id: 'congregation',
    header: 'Congregation',
    cell: (sheet) => sheet.congregation?.wbs_code ?? '—',
  },
  {
    id: 'graded',
    header: 'Graded',
    cell: (sheet) =>
      sheet.graded ? (
        <span className="pi pi-check response-graded" role="img" aria-label="Graded" />
      ) : null,
  },
];

function isReviewReason(value: string | null): value is ReviewReason {
  return value !== null && value in REVIEW_REASON_LABEL;
}

function isOrderBy(
  value: string | undefined,
): value is NonNullable<ListAnswerSheetsParams['order_by']> {
  return value === 'course' || value === 'student' || value === 'sequence' || value === 'graded_at';
}

export default function FileResponses() {
  const fileId = useParams().file_id ?? '';
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const file = useQuery(fileQueries.detail(fileId));
  const list = useListState();
  const [search] = useSearchParams();
  const reasonParam = search.get('reason');
  const reason = isReviewReason(reasonParam) ? reasonParam : undefined;
  const params: ListAnswerSheetsParams = {
    file: fileId,
    ...(reason && { reason }),
    skip: list.skip,
    limit: list.limit,
    ...(isOrderBy(list.order_by) && { order_by: list.order_by }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const failed = file.data?.process_status === 'failed';
  const sheets = useQuery({ ...answerSheetQueries.list(params), enabled: !failed });

  const pending = file.data?.process_status === 'pending';
  const onProgress = useCallback(
    (message: ProgressMessage) => {
      if (isProgressFinished(message)) void invalidateAnswerSheetsAndFiles(queryClient);
    },
    [queryClient],
  );
  useProgressStream(
    pending ? progressStreamUrl('process_service_center_upload', fileId) : null,
    onProgress,
  );

  if (isRefused(file.error)) {
    return (
      <>
        <BackToFiles />
        <PageHeader title={notAvailable('file')} />
      </>
    );
  }
  return (
    <>
      <BackToFiles />
      <PageHeader title={routes.fileResponses.title} subtitle={file.data?.name} />
      <FileTabs fileId={fileId} />
      {isScanningAdmin(user) && <ReviewComplete fileId={fileId} />}
      {failed ? (
        <Message severity="error" text={PROCESSING_FAILED_MESSAGE} />
      ) : (
        <>
          {pending && (
            <Message
              severity="info"
              text="The file is still being processed; the list fills in when it is done."
            />
          )}
          {reason && (
            <p className="responses-filter">
              {`Responses with a page marked “${REVIEW_REASON_LABEL[reason]}”. `}
              <Link to={paths.fileResponses(fileId)}>Show all responses</Link>
            </p>
          )}
          <PagedList
            label="Responses"
            columns={columns}
            query={sheets}
            list={list}
            rowKey={(sheet) => sheet.id}
            rowHref={(sheet) => paths.response(sheet.id)}
            emptyMessage={RESPONSES_EMPTY_MESSAGE}
          />
        </>
      )}
    </>
  );
}
