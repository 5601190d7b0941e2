import { dirname, join } from 'node:path';
import { actionTargets } from '../../core/keys/actions/actionTargets';
import { CheckpointStore } from '../../core/keys/actions/checkpoints';
import { countsText, matchText, runText } from '../../core/keys/actions/describeRun';
import { toResumable } from '../../core/keys/actions/resumableRuns';
import { runKeyActions } from '../../core/keys/actions/runKeyActions';
import { startPlan } from '../../core/keys/actions/startPlan';
import { refuseReadOnly } from '../../core/keys/edit/editTarget';
import type { IndexRegistry } from '../../core/keys/index/indexRegistry';
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
      const { connectionId, profile } = sessionProfile(profiles, input.profileId, session);
      refuseReadOnly(profile);
      const { runId, resume, db, selection, action, pace, dryRun } = startPlan(input, profile.spec.db, store, active);
      const { targets, retry } = await actionTargets(pool, connectionId, profile.spec, db);
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
              pace,
              dryRun,
              store,
              ...(resume === undefined ? {} : { resume }),
              ...(retry === undefined ? {} : { retry }),
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
