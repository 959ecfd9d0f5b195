// The rule for a congregation's WBS code (spec §5): longer than 5 characters, exactly one space,
// and the space not in the first two positions (e.g. "US 1234").
import { WBS_CODE_MIN_LENGTH_EXCLUSIVE } from '../../../machines/constants';

export function isValidWbsCode(code: string): boolean {
  if (code.length <= WBS_CODE_MIN_LENGTH_EXCLUSIVE) return false;
  const firstSpace = code.indexOf(' ');
  if (firstSpace === -1 || code.indexOf(' ', firstSpace + 1) !== -1) return false;
  return firstSpace >= 2;
}
