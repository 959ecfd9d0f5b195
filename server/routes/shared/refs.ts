// Row values to the contract's small shapes: references that are null (never missing) when the
// row has none.
import type { Schemas } from '../../contract/types';

export function countryOrNull(isoCode: string | null, displayName: string | null): Schemas['Country'] | null {
  return isoCode === null ? null : { iso_code: isoCode, display_name: displayName ?? isoCode };
}

export function namedRefOrNull(id: string | null, name: string | null): Schemas['NamedRef'] | null {
  return id === null ? null : { id, name: name ?? '' };
}

export function congregationRefOrNull(
  id: string | null,
  wbsCode: string | null,
  displayName: string | null,
): Schemas['CongregationRef'] | null {
  return id === null ? null : { id, wbs_code: wbsCode ?? '', display_name: displayName ?? '' };
}

export function lessonOrNull(
  id: string | null,
  name: string | null,
  number: number | null,
  courseId: string | null,
): Schemas['Lesson'] | null {
  if (id === null) return null;
  return { id, name: name ?? '', ...(number === null ? {} : { number }), ...(courseId === null ? {} : { course_id: courseId }) };
}

/** The name the student wrote, or "" when none. */
export function studentName(attributes: Schemas['StudentAttributes'] | null | undefined): string {
  return typeof attributes?.name === 'string' ? attributes.name : '';
}
