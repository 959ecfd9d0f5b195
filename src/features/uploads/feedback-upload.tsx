// /files/uploads/{id}, under the spec's heading "Feedback Upload Page": an upload's report, whole
// (GET /api/uploads/{id}), a graded upload's or a service center file's: the counts; every page
// not matched with its thumbnail and its reason; the pages matched, each to its file and answer
// sheet; the blank backs dropped. It refreshes while the upload is still being read.
import { Link, useParams } from 'react-router-dom';
import { Message } from 'primereact/message';
import { getGetUploadPageImageUrl, useGetUpload } from '../../../generated/hooks/uploads/uploads';
import type { UploadReport, UploadReportPage } from '../../../generated/hooks/model';
import { BackLink } from '../../components/page-layout/back-link';
import { Panel } from '../../components/page-layout/panel';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { READ_FROM_PRINTED_TEXT } from '../../components/page-item/printed-text';
import { reasonLabel } from './upload-report';
import './uploads.css';

export const FEEDBACK_UPLOAD_TITLE = 'Feedback Upload Page';
const REFRESH_WHILE_READING_MS = 2_000;

function Counts({ report }: { report: UploadReport }) {
  const { summary } = report;
  const items = [
    ['Pages read', summary.pages_read],
    ['Matched', summary.matched],
    ['Not matched', summary.not_matched],
    [report.kind === 'service_center' ? 'Blank pages set aside' : 'Blank backs dropped', summary.blank_dropped],
  ] as const;
  return (
    <dl className="upload-report-counts" aria-label="Upload summary">
      {items.map(([label, count]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{count}</dd>
        </div>
      ))}
    </dl>
  );
}

function NotMatchedPage({ uploadId, page }: { uploadId: string; page: UploadReportPage }) {
  return (
    <li className="upload-report-page" aria-label={`Page ${page.page_number}`}>
      {page.has_image ? (
        <img src={getGetUploadPageImageUrl(uploadId, page.page_number)} alt={`Scan of page ${page.page_number}`} loading="lazy" width={160} />
      ) : (
        <div className="upload-report-noimage">No image</div>
      )}
      <div>
        <p className="upload-report-page-title">{`Page ${page.page_number}`}</p>
        <p className="upload-report-reason">{reasonLabel(page)}</p>
        {page.code && <p className="upload-report-code">{page.code}</p>}
        {page.detail && <p className="upload-report-detail">{page.detail}</p>}
      </div>
    </li>
  );
}

function MatchedRow({ page }: { page: UploadReportPage }) {
  const sheet = page.answer_sheet;
  return (
    <tr>
      <td>{page.page_number}</td>
      <td>{page.file ? <Link to={paths.file(page.file.id)}>{page.file.name}</Link> : '—'}</td>
      <td>{sheet ? <Link to={paths.response(sheet.id)}>{[sheet.student_human_id === null ? null : `Student ${sheet.student_human_id}`, sheet.lesson].filter(Boolean).join(', ') || sheet.id.slice(0, 6)}</Link> : '—'}</td>
      <td>
        {page.identified_by === 'printed_text' && <strong className="upload-report-note">{READ_FROM_PRINTED_TEXT}</strong>}
        {page.reason && <strong className="upload-report-note">{reasonLabel(page)}</strong>}
        {page.detail && <span className="upload-report-detail">{page.detail}</span>}
      </td>
    </tr>
  );
}

export default function FeedbackUpload() {
  const id = useParams().id ?? '';
  const upload = useGetUpload(id, {
    query: { refetchInterval: (query) => (query.state.data?.process_status === 'pending' ? REFRESH_WHILE_READING_MS : false) },
  });
  const header = <PageHeader title={FEEDBACK_UPLOAD_TITLE} subtitle={upload.data ? `${upload.data.name} · ${formatDateTime(upload.data.created_at)}` : undefined} />;
  const back = <BackLink to={paths.uploads()} label="Back to Uploads" />;
  if (upload.error) {
    const missing = upload.error instanceof ApiError && upload.error.status === 404;
    return (
      <>
        {back}
        {header}
        <Message severity="error" text={missing ? 'This upload was not found.' : 'The upload could not be loaded. Please try again.'} />
      </>
    );
  }
  if (!upload.data) return <Loading />;
  const report = upload.data;
  const notMatched = report.pages.filter((page) => page.result === 'not_matched');
  const matched = report.pages.filter((page) => page.result === 'matched');
  return (
    <>
      {back}
      {header}
      {report.process_status === 'pending' && <Message severity="info" text="The pages are still being read; this report fills in as they are." />}
      {report.process_status === 'failed' && <Message severity="error" text={report.failure_reason ?? 'Processing failed. Please try again.'} />}
      {report.process_status === 'success' && notMatched.length === 0 && report.summary.matched > 0 && <Message severity="success" text="Every page went through." />}
      {report.kind === 'service_center' && (
        <p className="upload-report-file">
          This is a service center's file: its pages are mended on <Link to={paths.file(report.id)}>the file's page</Link>.
        </p>
      )}
      <Counts report={report} />
      <div className="panel-stack">
        <Panel title={`Pages not matched (${notMatched.length})`}>
          {notMatched.length === 0 ? <p>None.</p> : (
            <ul className="upload-report-pages">
              {notMatched.map((page) => <NotMatchedPage key={page.page_number} uploadId={report.id} page={page} />)}
            </ul>
          )}
        </Panel>
        <Panel title={`Pages matched (${matched.length})`}>
          {matched.length === 0 ? <p>None.</p> : (
            <div className="upload-report-scroll">
              <table className="upload-report-matched">
                <thead>
                  <tr>
                    <th scope="col">Page</th>
                    <th scope="col">File</th>
                    <th scope="col">Answer sheet</th>
                    <th scope="col">Note</th>
                  </tr>
                </thead>
                <tbody>
                  {matched.map((page) => <MatchedRow key={page.page_number} page={page} />)}
                </tbody>
              </table>
            </div>
          )}
        </Panel>
      </div>
    </>
  );
}
