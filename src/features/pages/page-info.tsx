// /admin/pages/{page_id} (spec §2): the page's thumbnail and a table of its Congregation, Page
// (template name or "None"), Response (first 6 characters of the answer sheet id) and Student
// (human id).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { Message } from 'primereact/message';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { shortId } from '../../lib/format';
import { LIST_THUMBNAIL, PageThumbnail } from '../../components/page-item/page-thumbnail';
import '../../components/page-item/pages.css';
import { pageQueries } from '../../lib/queries';

export const PAGE_NOT_FOUND = 'No page found';

export default function PageInfo() {
  const pageId = useParams().page_id ?? '';
  const page = useQuery(pageQueries.detail(pageId));
  const title = <PageHeader title={routes.page.title} />;
  if (page.error) {
    const notFound = page.error instanceof ApiError && page.error.status === 404;
    return (
      <>
        {title}
        <Message severity="error" text={notFound ? PAGE_NOT_FOUND : 'The page could not be loaded.'} />
      </>
    );
  }
  if (!page.data) return <Loading />;
  const { answer_sheet: sheet, template } = page.data;
  return (
    <>
      {title}
      <div className="page-info">
        <PageThumbnail pageId={pageId} size={LIST_THUMBNAIL} alt={`Page ${page.data.page_number}`} />
        <table className="page-info-table" aria-label="Page information">
          <thead>
            <tr>
              <th scope="col">Congregation</th>
              <th scope="col">Page</th>
              <th scope="col">Response</th>
              <th scope="col">Student</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>{sheet?.congregation?.wbs_code ?? 'None'}</td>
              <td>{template?.name ?? 'None'}</td>
              <td>{sheet ? <Link to={paths.response(sheet.id)}>{shortId(sheet.id)}</Link> : 'None'}</td>
              <td>{sheet?.student ? <Link to={paths.student(sheet.student.id)}>{sheet.student.human_id}</Link> : 'None'}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </>
  );
}
