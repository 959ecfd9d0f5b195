// /students/{student_id}/uploads/{upload_id} (spec §2): the scans of the answer sheet's pages, each
// its full-size upright image (GET /api/pages/{id}/preview).
import { getGetPagePreviewUrl } from '../../../generated/hooks/pages/pages';
import { routes } from '../../config/paths';
import { AnswerSheetScans, lessonName } from './answer-sheet-scans';

export const NO_PAGES_TEXT = 'This upload has no pages.';

export default function StudentUploadScans() {
  return (
    <AnswerSheetScans title={routes.studentUpload.title}>
      {(pages, sheet) =>
        pages.length === 0 ? (
          <p>{NO_PAGES_TEXT}</p>
        ) : (
          <div className="scan-grid">
            {pages.map((page) => (
              <figure key={page.id} className="scan">
                <img
                  src={getGetPagePreviewUrl(page.id)}
                  alt={`Scan of page ${page.page_number}, ${lessonName(sheet)}`}
                  loading="lazy"
                />
                <figcaption>
                  Page {page.page_number}
                  {page.ignored ? ' (ignored)' : ''}
                </figcaption>
              </figure>
            ))}
          </div>
        )
      }
    </AnswerSheetScans>
  );
}
