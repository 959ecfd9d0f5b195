// The congregation the signed-in user acts for: its code and name come with about-me; the
// congregation query fills them in when about-me lacks them, and only for a user who has one.
import { useGetCongregation } from '../../generated/hooks/congregations/congregations';
import { hasCongregation, type CurrentUser } from './auth';

export interface CurrentCongregation {
  id: string;
  wbs_code: string;
  display_name: string;
}

export function useCurrentCongregation(user: CurrentUser): CurrentCongregation | undefined {
  const needsQuery = hasCongregation(user) && !user.wbs_code;
  const query = useGetCongregation(user.congregation, { query: { enabled: needsQuery } });
  if (!hasCongregation(user)) return undefined;
  if (user.wbs_code) {
    return { id: user.congregation, wbs_code: user.wbs_code, display_name: user.display_name ?? '' };
  }
  if (!query.data) return undefined;
  return { id: user.congregation, wbs_code: query.data.wbs_code, display_name: query.data.display_name };
}
