// The Details card of the student page (spec §2): the student's uploads (answer sheets, GET
// /api/students/{id}/answer-sheets, newest first), each as "Lesson: {name}" and "Time: {date}"
// linking to its scans; a graded one also links to its graded scans.
import { Link } from 'react-router-dom';
import { useListStudentAnswerSheets } from '../../../generated/hooks/students/students';
import { Panel } from '../../components/page-layout/panel';
import { paths } from '../../config/paths';
import { formatDateTime } from '../../lib/format';

export const NO_UPLOADS = 'No uploads yet.';

export function StudentUploads({ studentId }: { studentId: string }) {
  const sheets = useListStudentAnswerSheets(studentId);
  return (
    <Panel title="Details">
      {sheets.isError && <p className="panel-message" role="alert">Could not load the uploads.</p>}
      {sheets.data && sheets.data.length === 0 && <p className="panel-message">{NO_UPLOADS}</p>}
      {sheets.data && sheets.data.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {sheets.data.map((sheet) => (
            <li key={sheet.id}>
              <Link to={paths.studentUpload(studentId, sheet.id)} className="upload-link">
                <span>Lesson: {sheet.lesson?.name ?? 'Unrecognized'}</span>
                <span>Time: {formatDateTime(sheet.file.uploaded_at)}</span>
              </Link>
              {sheet.graded && (
                <Link to={paths.studentGraded(studentId, sheet.id)} className="item-secondary">
                  Graded scans
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
