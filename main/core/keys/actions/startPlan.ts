import type { CallArgs } from '../../../../app/contract';
import { AppError } from '../../../../app/errors';
import type { KeyAction, KeySelection, Pace } from '../../../../app/schemas/keyActions';
import { newRunId, type Checkpoint, type CheckpointStore } from './checkpoints';
import { matchText, wholeDb } from './describeRun';
import { resumable } from './resumableRuns';

/** What a started run does: the ask's own, or a resumed run's (its selection, action, DB and pace are the run's). */
export interface StartPlan {
  runId: string;
  resume: Checkpoint | undefined;
  db: number;
  selection: KeySelection;
  action: KeyAction;
  pace: Pace;
  dryRun: boolean;
}

/**
 * keys.actions.start's ask made a run, or refused before anything runs: an export (it writes a
 * file where it runs, so only the command line starts one), a whole-DB selection whose DB was
 * not typed back, a checkpoint of another profile or one running in this process (`active`).
 */
export function startPlan(
  ask: CallArgs<'keys.actions.start'>,
  profileDb: number,
  store: Pick<CheckpointStore, 'load'>,
  active: ReadonlySet<string>,
): StartPlan {
  const resume = ask.resume === undefined ? undefined : resumable(store.load(ask.resume), ask.profileId, active);
  const db = resume?.db ?? ask.db ?? profileDb;
  const selection = resume?.selection ?? ask.selection;
  const action = resume?.action ?? ask.action;
  if (action.op === 'export')
    throw new AppError('VALIDATION', 'An export writes a file where it runs: use `cacheboard keys export` on the command line', 'resume');
  const dryRun = resume === undefined ? ask.dryRun : false;
  if (!dryRun && wholeDb(selection) && ask.confirmDb !== db) {
    throw new AppError('VALIDATION', `"${matchText(selection)}" with no filter is every key of DB ${db}: type ${db} to confirm`, 'confirmDb');
  }
  return { runId: resume?.runId ?? newRunId(), resume, db, selection, action, pace: resume?.pace ?? ask.pace, dryRun };
}
