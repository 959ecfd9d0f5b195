// The blank answer-sheet masters a service center hands out: every course with its lessons, each
// lesson's master a PDF (GET /api/courses/{id}/lessons/{lesson_id}/master.pdf, t codes printed).
import { getPrintLessonMasterUrl, useListCourses } from '../../../generated/hooks/reference/reference';
import { Panel } from '../../components/page-layout/panel';

/** Every course fits in one request. */
const ALL_COURSES = { limit: 500 } as const;

export function LessonMastersPanel() {
  const courses = useListCourses(ALL_COURSES);
  return (
    <Panel title="Blank Lesson Masters">
      {courses.isError && <p className="panel-message" role="alert">Could not load the courses.</p>}
      {courses.data && courses.data.items.length === 0 && <p className="panel-message">No courses yet.</p>}
      {courses.data?.items.map((course) => (
        <details key={course.id} className="lesson-masters">
          <summary>{course.name}</summary>
          <ul className="item-list" aria-label={`Lessons of ${course.name}`}>
            {(course.lessons ?? []).map((lesson) => (
              <li key={lesson.id}>
                <span className="item-main">{lesson.name}</span>
                <a href={getPrintLessonMasterUrl(course.id, lesson.id)} target="_blank" rel="noopener" aria-label={`Blank master of ${lesson.name} (PDF)`}>
                  <span className="pi pi-file-pdf" aria-hidden="true" /> Master PDF
                </a>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </Panel>
  );
}
