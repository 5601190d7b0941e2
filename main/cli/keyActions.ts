import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { StreamEvent } from '../../app/contract';
import { AppError } from '../../app/errors';
import type { KeyActionOp } from '../../app/schemas/keyActions';
import { CheckpointStore, newRunId, stillRunning, type Checkpoint } from '../core/keys/actions/checkpoints';
import { actionTargets } from '../core/keys/actions/actionTargets';
import { actionText, filtersText, matchText, wholeDb } from '../core/keys/actions/describeRun';
import { runKeyActions } from '../core/keys/actions/runKeyActions';
import type { ProfileSpec } from '../core/pool/types';
import { withCliJob } from './cliJob';
import { CLI_PROFILE, withCliPool } from './cliPool';
import { dataDirFrom } from './dataDir';
import { parseKeyActionArgs } from './keyActionsArgs';
import { reportJson, reportText } from './keyActionsOutput';
import { renderKeyActionProgress } from './progressBar';
import { specFromFlags } from './topologyFlags';

type ActionEvent = StreamEvent<'keys.actions.progress'>;

/**
 * `cacheboard keys delete|expire|persist|export`: the engine the Keys page uses, on the flags'
 * server. Asks on a terminal unless --yes or --dry-run, refuses otherwise. Checkpoints in the
 * data dir's key-actions/ folder; Ctrl-C or SIGTERM stops after the pages in flight and prints
 * the id to resume with. Exit 0 when done without errors, 1 on any error, 128 + the signal's
 * number when stopped.
 */
export async function keyActions(op: KeyActionOp, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseKeyActionArgs(op, argv, env);
  const spec = specFromFlags(args);
  const where = whereOf(spec);
  const store = new CheckpointStore(join(dataDirFrom(env), 'key-actions'));
  const resume = args.resume === undefined ? undefined : resumable(store.load(args.resume), op, where);
  const selection = resume?.selection ?? args.selection;
  const action = resume?.action ?? args.action;
  if (selection === undefined || action === undefined) throw new AppError('INTERNAL', 'no selection to act on');
  const dryRun = args.dryRun;
  if (!dryRun && !args.yes) {
    const ok = await confirm(
      `${actionText(action)} every key matching "${matchText(selection)}"${filtersText(selection) === '' ? '' : ` (${filtersText(selection)})`} on ${where}`,
      wholeDb(selection) ? spec.db : null,
    );
    if (!ok) return 1;
  }
  const out = resume?.export?.out ?? args.out;
  return withCliPool(spec, async (pool, id) => {
    const { targets, retry } = await actionTargets(pool, id, spec, spec.db);
    const runId = resume?.runId ?? newRunId();
    return withCliJob<ActionEvent, number>(
      {
        json: args.json,
        stopNote: 'Stopping after the pages in flight; the counts will say exactly what was done…',
        progress: (e) => (e.kind === 'progress' ? renderKeyActionProgress(e) : null),
      },
      async ({ run, cancelledCode }) => {
        const end = await run((emit, signal) =>
          runKeyActions(
            {
              runId,
              profileId: CLI_PROFILE,
              target: where,
              db: spec.db,
              targets: targets(`cacheboard-keyactions`),
              selection,
              action,
              pace: resume?.pace ?? args.pace,
              dryRun,
              store,
              ...(resume === undefined ? {} : { resume }),
              ...(out === undefined ? {} : { out }),
              ...(retry === undefined ? {} : { retry }),
            },
            emit,
            signal,
          ),
        );
        if (end.report === undefined) {
          const error = end.kind === 'failed' ? end.error : { code: 'INTERNAL', message: 'no report' };
          process.stderr.write(`cacheboard: ${error.message}\n`);
          if (args.json) process.stdout.write(`${JSON.stringify({ error })}\n`);
          return 1;
        }
        if (end.kind === 'failed') process.stderr.write(`cacheboard: ${end.error.message}\n`);
        process.stdout.write(args.json ? `${JSON.stringify(reportJson(end.report, end))}\n` : reportText(end.report, end, selection, where));
        if (end.kind === 'cancelled') return cancelledCode();
        return end.kind === 'failed' || end.report.errors > 0 ? 1 : 0;
      },
    );
  });
}

/** Where the flags point, as a checkpoint records it (no password): a resume must point at the same place. */
function whereOf(spec: ProfileSpec): string {
  const t = spec.topology;
  if (t?.kind === 'cluster') return `cluster ${[`${spec.host}:${spec.port}`, ...t.seeds.map((s) => `${s.host}:${s.port}`)].sort()[0] ?? ''}`;
  if (t?.kind === 'sentinel') return `sentinel ${t.masterName}/${spec.db}`;
  return `${spec.host}:${spec.port}/${spec.db}`;
}

function resumable(cp: Checkpoint, op: KeyActionOp, where: string): Checkpoint {
  if (cp.profileId !== CLI_PROFILE)
    throw new AppError('VALIDATION', `Run ${cp.runId} was started from the app, not the command line: resume it on the Keys page`, 'resume');
  if (cp.op !== op) throw new AppError('VALIDATION', `Run ${cp.runId} is a \`keys ${cp.op}\`, not \`keys ${op}\``, 'resume');
  if (cp.target !== where)
    throw new AppError('VALIDATION', `Run ${cp.runId} acted on ${cp.target}, not ${where}: give the same --url and topology flags`, 'resume');
  if (stillRunning(cp)) throw new AppError('CONFLICT', `Run ${cp.runId} is running now (process ${cp.pid})`, 'resume');
  return cp;
}

/**
 * Ask on a terminal; refuse without one. Every key of a DB is confirmed by typing its number
 * back (as the Bulk load page asks), anything else by "yes".
 */
async function confirm(what: string, db: number | null): Promise<boolean> {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) {
    throw new AppError('VALIDATION', `refusing to ${what} without --yes (no terminal to ask on); --dry-run shows what it would touch`, 'yes');
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const want = db === null ? 'yes' : String(db);
    const answer = await rl.question(`About to ${what}.\n${db === null ? 'Type yes' : `That is every key of DB ${db}: type ${db}`} to go on: `);
    if (answer.trim() === want) return true;
    process.stderr.write('Nothing done.\n');
    return false;
  } finally {
    rl.close();
  }
}
