// Picks a response's lesson (its template), grouped by course (GET /api/courses with lessons).
import { useId } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { useListCourses } from '../../../generated/hooks/reference/reference';
import type { Lesson } from '../../../generated/hooks/model';

/** Every course fits in one request. */
const ALL_COURSES = { limit: 500 } as const;

export function LessonPicker({
  value,
  current,
  onChange,
}: {
  value: string | null;
  current: Lesson | null;
  onChange: (lessonId: string | null) => void;
}) {
  const id = useId();
  const courses = useListCourses(ALL_COURSES);
  const groups = (courses.data?.items ?? []).map((course) => ({
    label: course.name,
    items: (course.lessons ?? []).map((lesson) => ({ value: lesson.id, label: lesson.name })),
  }));
  const known = groups.some((group) => group.items.some((item) => item.value === current?.id));
  if (current && !known)
    groups.unshift({ label: 'Current', items: [{ value: current.id, label: current.name }] });
  return (
    <div className="form-field">
      <label htmlFor={id}>Course</label>
      <Dropdown
        inputId={id}
        value={value}
        options={groups}
        optionGroupLabel="label"
        optionGroupChildren="items"
        // A course's heading is no option of the listbox (axe: aria-required-children, listitem).
        pt={{ itemGroup: { role: 'presentation' } }}
        optionValue="value"
        optionLabel="label"
        filter
        showClear
        placeholder="Choose the lesson"
        loading={courses.isLoading}
        onChange={(event) => onChange((event.value as string | null) ?? null)}
      />
    </div>
  );
}
