import type { DistinctKeyTracker } from '../../resp/keyTracker';
import type { LoadMode } from '../types';
import { LoadFailed } from './loadFailure';
import type { LoadLog } from './loadLog';
import { verifyLoad, type Verdict, type VerifyInput } from './verifyLoad';

/** What the server side adds to the checks: the replies, DBSIZE, the counters grown. */
export type LoadedState = Pick<VerifyInput, 'result' | 'dbsize' | 'dbLabel' | 'expiredDuring' | 'evictedDuring'>;

/** verifyLoad's verdict into the report, its warnings said; a failed one stops the load. */
export function verifyStep(log: LoadLog, load: { mode: LoadMode; maxErrors: number }, tracker: DistinctKeyTracker | undefined, state: LoadedState): Verdict {
  const verdict = verifyLoad({
    mode: load.mode,
    maxErrors: load.maxErrors,
    expectedKeys: tracker?.trackable === true ? tracker.count : undefined,
    untrackedBy: tracker?.untrackedBy,
    ...state,
  });
  log.report.verify = verdict.verify;
  for (const w of verdict.warnings) log.warn(w);
  if (!verdict.ok) throw new LoadFailed('REDIS', verdict.problem ?? 'Verification failed');
  return verdict;
}
