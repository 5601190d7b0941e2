import type { AudienceTarget } from './form';
import type { AppError } from '../../../app/errors';
import type { AudienceParseResult } from '../../../app/schemas/audience';
import { useCall } from '../../bridge/useCall';
import { useSettled } from '../../lib/useSettled';

/** How long typing must pause before the expression is checked. */
const DEBOUNCE_MS = 250;

export interface ParseState {
  /** The server's verdict on the text as it stood when typing paused. */
  result: AudienceParseResult | undefined;
  /** The text `result` is about (the caret is drawn under it, not under newer text). */
  checked: string;
  error: AppError | undefined;
  /** Typing, or the check is on its way. */
  pending: boolean;
}

/** The expression checked live by `audience.parse` (against the profile's keys, so unknown terms are named). */
export function useParse(where: string, profileId: string, db: AudienceTarget): ParseState {
  // The target too: typing in the key layout changes it.
  const settled = useSettled({ where, db }, DEBOUNCE_MS);
  const checked = settled.where;
  const call = useCall('audience.parse', checked.trim() === '' ? undefined : { where: checked, profileId, ...settled.db });
  return { result: call.data, checked, error: call.error, pending: checked !== where || (checked.trim() !== '' && call.loading) };
}
