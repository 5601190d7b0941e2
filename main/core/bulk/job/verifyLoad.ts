import type { LoadReport } from '../../../../app/schemas/bulk';
import type { LoadMode } from '../types';
import type { PipeResult } from '../../resp/types';

export type VerifyReport = NonNullable<LoadReport['verify']>;

export interface VerifyInput {
  mode: LoadMode;
  result: Pick<PipeResult, 'commands' | 'replies' | 'errors'>;
  maxErrors: number;
  /** Distinct keys written, when the tracker could count them. */
  expectedKeys: number | undefined;
  /** When the count is unusable: the command that made it so (DEL, RENAME…). */
  untrackedBy: string | undefined;
  /** DBSIZE of the DB loaded into (staging for swap, target for flush). */
  dbsize: number | undefined;
  /** The DB name for messages, e.g. "staging DB 3". */
  dbLabel: string;
  /** INFO stats expired_keys / evicted_keys grown during the load (server-wide counters). */
  expiredDuring: number;
  evictedDuring: number;
}

export interface Verdict {
  verify: VerifyReport;
  /** Whether the data may go live (swap) / is complete (flush, merge). */
  ok: boolean;
  /** Why not, as a sentence. */
  problem?: string;
  warnings: string[];
}

/**
 * Checks after loading: every command answered, errors within the limit, and
 * (swap, flush: the DB started empty) DBSIZE equal to the distinct keys
 * written. Legitimate shortfalls: keys whose TTL ran out during the load, and
 * commands that failed. Keys evicted under maxmemory are data loss, possibly
 * of live keys of any DB: a failure in every mode.
 */
export function verifyLoad(v: VerifyInput): Verdict {
  const warnings: string[] = [];
  const repliesOk = v.result.replies === v.result.commands;
  const verify: VerifyReport = { replies: repliesOk, keys: 'skipped' };
  let keysProblem: string | undefined;
  if (v.mode === 'merge') {
    verify.note = 'merge adds to the keys already in the DB, so DBSIZE says nothing about this load';
  } else if (v.untrackedBy !== undefined) {
    verify.note = `the input uses ${v.untrackedBy}, which removes or renames keys, so the keys written cannot be compared with DBSIZE`;
  } else if (v.expectedKeys !== undefined && v.dbsize !== undefined) {
    verify.expectedKeys = v.expectedKeys;
    verify.dbsize = v.dbsize;
    const missing = v.expectedKeys - v.dbsize;
    if (missing === 0) {
      verify.keys = 'ok';
    } else if (missing < 0) {
      verify.keys = 'mismatch';
      keysProblem = `${v.dbLabel} holds ${-missing} more keys than the input wrote: another client wrote into it during the load`;
    } else if (v.evictedDuring > 0) {
      verify.keys = 'mismatch';
      keysProblem = `${v.dbLabel} is missing ${missing} of ${v.expectedKeys} keys and Redis evicted ${v.evictedDuring} keys during the load (maxmemory)`;
    } else if (missing <= v.expiredDuring + v.result.errors) {
      verify.keys = 'ok';
      const why: string[] = [];
      if (v.expiredDuring > 0) why.push(`${v.expiredDuring} keys expired (TTL) on the server during the load`);
      if (v.result.errors > 0) why.push(`${v.result.errors} commands failed`);
      verify.note = `${missing} fewer keys than written: ${why.join(' and ')}`;
    } else {
      verify.keys = 'mismatch';
      keysProblem = `${v.dbLabel} holds ${v.dbsize} keys but the input wrote ${v.expectedKeys} distinct keys`;
    }
  } else {
    verify.note = 'the key count could not be read';
  }

  const problems: string[] = [];
  if (v.evictedDuring > 0) {
    // Any mode: the counter is server-wide, so the keys may be live ones of any DB. swap must not switch.
    problems.push(`Redis evicted ${v.evictedDuring} keys during the load (maxmemory reached): some data, possibly live data, is gone`);
  }
  if (!repliesOk) {
    problems.push(`${v.result.commands} commands were sent but ${v.result.replies} replies arrived`);
  }
  if (v.result.errors > v.maxErrors) {
    problems.push(`${v.result.errors} commands failed, more than the ${v.maxErrors} allowed`);
  }
  if (keysProblem !== undefined) {
    // flush wrote into the live DB already: a count mismatch cannot be undone, so it is reported, not failed.
    if (v.mode === 'swap') problems.push(keysProblem);
    else warnings.push(keysProblem);
  }
  const verdict: Verdict = { verify, ok: problems.length === 0, warnings };
  if (problems.length > 0) verdict.problem = `Verification failed: ${problems.join('; ')}`;
  return verdict;
}
