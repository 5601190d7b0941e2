import type { CallArgs, CallOutput } from '../../../../app/contract';
import type { PoolApi, StoredProfile } from '../../pool/types';
import { refuseKeyWrites } from '../edit/editTarget';
import type { IndexRegistry } from '../index/indexRegistry';
import type { KeyActionJobs } from './actionJobs';
import { actionTargets } from './actionTargets';
import type { CheckpointStore } from './checkpoints';
import { countsText, matchText, runText } from './describeRun';
import { toResumable } from './resumableRuns';
import { runKeyActions } from './runKeyActions';
import { startPlan } from './startPlan';

/** Tests: runs between a page's check round and its act round, given the page's matched keys (a second client changes some there). */
export interface KeyActionHooks {
  beforeAct?: ((keys: Buffer[]) => Promise<void>) | undefined;
}

/** One run's audit entries: 'started' before it acts (write-ahead: a throw refuses the run), then its outcome. */
export type RunTrail = (outcome: 'started' | 'ok' | 'failed' | 'cancelled', detail: string) => void;

/** Opens a run's audit trail: the action (keys.actions.<op>) on `where`. */
export type OpenTrail = (action: string, where: string) => RunTrail;

export interface KeyActionRunsDeps {
  pool: Pick<PoolApi, 'masters' | 'cluster'>;
  jobs: KeyActionJobs;
  /** Where checkpoints live (the data dir's key-actions/ folder). */
  store: CheckpointStore;
  /** The Keys page's indexes: a delete's run tells them which keys may be gone. */
  indexes?: Pick<IndexRegistry, 'afterAction'> | undefined;
  hooks?: KeyActionHooks;
}

/**
 * The Keys page's bulk key actions as jobs: never on the read-only embedded profile, a whole-DB
 * selection only with its DB typed back (startPlan). Real runs are audited (started, then the
 * outcome with its counts); dry runs change nothing and are not.
 */
export class KeyActionRuns {
  /** Run ids running in this process: not resumable, and not resumed twice. */
  private readonly active = new Set<string>();

  constructor(private readonly deps: KeyActionRunsDeps) {}

  /** Starts the run `ask` describes on `profile` (reached under the pool's `connectionId`); its job id. */
  async start(
    ask: CallArgs<'keys.actions.start'>,
    connectionId: string,
    profile: StoredProfile,
    openTrail: OpenTrail,
  ): Promise<CallOutput<'keys.actions.start'>> {
    const { pool, jobs, store, indexes, hooks = {} } = this.deps;
    const active = this.active;
    refuseKeyWrites(profile);
    const { runId, resume, db, selection, action, pace, dryRun } = startPlan(ask, profile.spec.db, store, active);
    const { targets, retry } = await actionTargets(pool, connectionId, profile.spec, db);
    const trail = dryRun ? null : openTrail(`keys.actions.${action.op}`, `profile ${ask.profileId} db ${db}`);
    trail?.('started', `${runText(selection, action)}; run ${runId}${resume === undefined ? '' : ' (resumed)'}`);
    active.add(runId);
    const jobId = jobs.start(`${ask.profileId}/${db}`, async (jobId, emit, signal) => {
      try {
        const end = await runKeyActions(
          {
            runId,
            profileId: ask.profileId,
            target: `${ask.profileId}/${db}`,
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
          void indexes?.afterAction(ask.profileId, db, Buffer.from(selection.match, 'base64'), `A bulk delete of ${matchText(selection)}`);
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
  }

  /** The profile's cut runs that may be resumed (none running in this process). */
  resumable(profileId: string): CallOutput<'keys.actions.resumable'> {
    return { runs: this.deps.store.resumable(profileId, this.active).map(toResumable) };
  }
}
