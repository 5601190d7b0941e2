import { dirname, join } from 'node:path';
import { AppError } from '../../../app/errors';
import type { ResumableRun } from '../../../app/schemas/keyActions';
import type { z } from 'zod';
import { CheckpointStore, newRunId, type Checkpoint } from '../../core/keys/actions/checkpoints';
import { clusterRetry } from '../../core/keys/actions/clusterRetry';
import { countsText, matchText, runText, wholeDb } from '../../core/keys/actions/describeRun';
import { runKeyActions } from '../../core/keys/actions/runKeyActions';
import { refuseReadOnly } from '../../core/keys/edit/editTarget';
import type { IndexRegistry } from '../../core/keys/index/indexRegistry';
import { indexTargets } from '../../core/keys/index/indexTargets';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

type KeyActionHandlers = Pick<Handlers, 'keys.actions.start' | 'keys.actions.resumable'>;

/** Tests: runs between a page's check round and its act round, given the page's matched keys (a second client changes some there). */
export interface KeyActionHooks {
  beforeAct?: ((keys: Buffer[]) => Promise<void>) | undefined;
}

/**
 * Bulk key actions (their progress and cancel are every job's, ./jobs.ts). Ops only (the
 * contract's role; the dispatcher refuses analysts), never on the read-only embedded profile,
 * a whole-DB selection only with its DB typed back. Real runs are audited (started, then the
 * outcome with its counts); dry runs change nothing and are not. Checkpoints live in the data
 * dir's `key-actions/` folder, beside profiles.json.
 */
export function keyActionHandlers(
  { profiles, pool, jobs, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'jobs' | 'audit'>,
  store = new CheckpointStore(join(dirname(profiles.file), 'key-actions')),
  hooks: KeyActionHooks = {},
  /** The Keys page's indexes: a delete's run tells them which keys may be gone. */
  indexes?: Pick<IndexRegistry, 'afterAction'>,
): KeyActionHandlers {
  /** Run ids running in this process: not resumable, and not resumed twice. */
  const active = new Set<string>();
  return {
    'keys.actions.start': async (input, { session }) => {
      const { id, profile } = sessionProfile(profiles, input.profileId, session);
      refuseReadOnly(profile);
      const resume = input.resume === undefined ? undefined : resumable(store.load(input.resume), input.profileId, active);
      const db = resume?.db ?? input.db ?? profile.spec.db;
      const selection = resume?.selection ?? input.selection;
      const action = resume?.action ?? input.action;
      if (action.op === 'export') throw new AppError('VALIDATION', 'An export writes a file where it runs: use `cacheboard keys export` on the command line', 'resume');
      const dryRun = resume === undefined ? input.dryRun : false;
      if (!dryRun && wholeDb(selection) && input.confirmDb !== db) {
        throw new AppError('VALIDATION', `"${matchText(selection)}" with no filter is every key of DB ${db}: type ${db} to confirm`, 'confirmDb');
      }
      const targets = await indexTargets(pool, id, profile.spec, db);
      const cluster = profile.spec.topology?.kind === 'cluster';
      const runId = resume?.runId ?? newRunId();
      const where = `profile ${input.profileId} db ${db}`;
      const trail = dryRun ? null : auditFor(audit, session, `keys.actions.${action.op}`, where);
      trail?.('started', `${runText(selection, action)}; run ${runId}${resume === undefined ? '' : ' (resumed)'}`);
      active.add(runId);
      const jobId = jobs.keyActions.start(`${input.profileId}/${db}`, async (jobId, emit, signal) => {
        try {
          const end = await runKeyActions(
            {
              runId,
              profileId: input.profileId,
              target: `${input.profileId}/${db}`,
              db,
              targets: targets(`cacheboard-keyactions:${jobId}`),
              selection,
              action,
              pace: resume?.pace ?? input.pace,
              dryRun,
              store,
              ...(resume === undefined ? {} : { resume }),
              ...(cluster ? { retry: clusterRetry(pool, id) } : {}),
              ...(hooks.beforeAct === undefined ? {} : { beforeAct: hooks.beforeAct }),
            },
            emit,
            signal,
          );
          // Whatever its ending, the keys it removed leave the indexes of this DB (checked there, not rescanned).
          if (!dryRun && action.op === 'delete' && (end.report?.acted ?? 0) > 0) {
            void indexes?.afterAction(input.profileId, db, Buffer.from(selection.match, 'base64'), `A bulk delete of ${matchText(selection)}`);
          }
          const outcome = end.kind === 'done' ? 'ok' : end.kind;
          const counts = end.report === undefined ? '' : `; ${countsText(end.report)}`;
          trail?.(outcome, `${runText(selection, action)}${counts}${end.kind === 'failed' ? `; ${end.error.message}` : ''}; run ${runId}`);
          return end;
        } finally {
          active.delete(runId);
        }
      });
      return { jobId };
    },
    'keys.actions.resumable': async ({ profileId }, { session }) => {
      sessionProfile(profiles, profileId, session);
      return { runs: store.resumable(profileId, active).map(toResumable) };
    },
  };
}

/** The checkpoint, if it belongs to this profile and no run of this process holds it. */
function resumable(cp: Checkpoint, profileId: string, active: ReadonlySet<string>): Checkpoint {
  if (cp.profileId !== profileId) throw new AppError('VALIDATION', `Run ${cp.runId} belongs to another profile`, 'resume');
  if (active.has(cp.runId)) throw new AppError('CONFLICT', `Run ${cp.runId} is running now`, 'resume');
  return cp;
}

function toResumable(cp: Checkpoint): z.output<typeof ResumableRun> {
  const sum = (f: (s: Checkpoint['shards'][number]) => number) => cp.shards.reduce((a, s) => a + f(s), 0);
  return {
    runId: cp.runId,
    profileId: cp.profileId,
    db: cp.db,
    op: cp.op,
    match: matchText(cp.selection),
    startedAt: cp.startedAt,
    counts: {
      scanned: sum((s) => s.scanned),
      total: cp.total,
      matched: sum((s) => s.matched),
      acted: sum((s) => s.acted),
      skipped: sum((s) => s.skipped),
      errors: sum((s) => s.errors),
      short: sum((s) => s.short + s.inFlight),
      seconds: cp.seconds,
      shards: cp.shards.map(({ cursor: _cursor, ...c }) => c),
    },
  };
}
