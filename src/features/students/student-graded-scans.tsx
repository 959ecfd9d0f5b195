// /students/{student_id}/graded/{upload_id} (spec §2): the graded scans of the answer sheet's
// pages, front (GET /api/pages/{id}/graded-preview) and, when the feedback has one, back
// (?is_back=true).
import { getGetPageGradedPreviewUrl } from '../../../generated/hooks/pages/pages';
import { routes } from '../../config/paths';
import { AnswerSheetScans, lessonName } from './answer-sheet-scans';

export const NO_GRADED_SCANS = 'There are no graded scans for this upload yet.';

export default function StudentGradedScans() {
  return (
    <AnswerSheetScans title={routes.studentGraded.title}>
      {(pages, sheet) => {
        const graded = pages.filter((page) => page.feedback_pages.length > 0);
        if (graded.length === 0) return <p>{NO_GRADED_SCANS}</p>;
        return (
          <div className="scan-grid">
            {graded.flatMap((page) => {
              const hasBack = page.feedback_pages.some((feedback) => feedback.has_back);
              const sides = hasBack ? (['front', 'back'] as const) : (['front'] as const);
              return sides.map((side) => (
                <figure key={`${page.id}-${side}`} className="scan">
                  <img
                    src={getGetPageGradedPreviewUrl(page.id, side === 'back' ? { is_back: true } : undefined)}
                    alt={`Graded scan of page ${page.page_number}, ${side}, ${lessonName(sheet)}`}
                    loading="lazy"
                  />
                  <figcaption>
                    Page {page.page_number}, {side === 'front' ? 'Front' : 'Back'}
                  </figcaption>
                </figure>
              ));
            })}
          </div>
        );
      }}
    </AnswerSheetScans>
  );
}
