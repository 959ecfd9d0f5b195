// The student ID search of the students list (spec §5, §9): human_id_prefix goes to the server only
// when the text is numeric, and then with limit 20; an empty search asks for no search rows.
import { STUDENT_SEARCH_LIMIT } from '../../../machines/constants';

export interface StudentIdSearch {
  human_id_prefix?: string;
  /** 20 for a search, 0 when the box is empty. */
  limit: number;
}

export function studentIdSearch(text: string | undefined): StudentIdSearch {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { limit: 0 };
  if (/^\d+$/.test(trimmed)) return { human_id_prefix: trimmed, limit: STUDENT_SEARCH_LIMIT };
  return { limit: STUDENT_SEARCH_LIMIT };
}
