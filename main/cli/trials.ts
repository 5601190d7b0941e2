import { randomBytes } from 'node:crypto';
import { AppError } from '../../app/errors';
import type { TrialEvent } from '../../app/schemas/trials';
import { withCliPool } from './cliPool';
import type { ProfileSpec } from '../core/pool/types';
import { privateConnector } from '../core/trials/connector';
import { runTrial, type TrialSettings } from '../core/trials/runTrial';
import { scratchPrefix } from '../core/trials/scratch';
import { trialTarget, type TargetRequest, type TrialTarget } from '../core/trials/trialTarget';
import { runCliJob } from './cliJob';
import { renderTrialProgress } from './progressBar';
import { specFromFlags } from './topologyFlags';
import { parseTrialsArgs } from './trialsArgs';
import { trialsJson, trialsText } from './trialsOutput';

/**
 * The flag behind each field a trial's error can name: the DB and the server
 * (a replica) come from --url. The rest are the flags' own names.
 */
const FLAG_OF_FIELD: Record<string, string> = {
  profileId: 'url',
  db: 'url',
  confirmNonEmpty: 'confirm-non-empty',
  latencyMs: 'latency-ms',
};

function flagOf(field: string | undefined): string | undefined {
  // The trial is the first argument, not a flag: its errors (multiplex on a cluster) name none.
  if (field === undefined || field === 'trial') return undefined;
  return FLAG_OF_FIELD[field] ?? field;
}

/** Prints a failure on stderr (and as JSON with --json), naming the flag behind its field; exit code 1. */
function failed(error: { code: string; message: string; field?: string | undefined }, json: boolean): number {
  const { code, field } = error;
  const flag = flagOf(field);
  // The core's text names the contract's field ("(confirmNonEmpty)"); a shell user knows the flag.
  const message = flag === undefined ? error.message : error.message.replaceAll(`(${field})`, `(--${flag})`);
  process.stderr.write(`cacheboard: ${flag === undefined ? '' : `--${flag}: `}${message}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message, ...(flag === undefined ? {} : { flag }) } })}\n`);
  return 1;
}

/** The one server the trial measures: a cluster's master from CLUSTER NODES, through a pool used for that alone. */
async function targetFor(spec: ProfileSpec, req: TargetRequest): Promise<TrialTarget> {
  return withCliPool(spec, (pool, id) => trialTarget(pool, id, spec, req));
}

/** `cacheboard trials`: exit code 0 when done, 1 on failure, 128 + the signal's number when stopped by Ctrl-C (130), SIGTERM (143) or SIGHUP (129), scratch keys removed all the same. */
export async function trials(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseTrialsArgs(argv, env);
  // The pid names the run in CLIENT LIST; the random part keeps two hosts' runs apart on one server.
  const runId = `cli${process.pid}_${randomBytes(3).toString('hex')}`;
  const asked = specFromFlags(args);
  let target: TrialTarget;
  try {
    target = await targetFor(asked, { trial: args.settings.trial, db: asked.db, tag: runId });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return failed(e, args.json);
  }
  const { spec, hashTag } = target;
  const connector = privateConnector(spec);
  const settings: TrialSettings = { ...args.settings, db: spec.db };
  const run = await runCliJob({
    json: args.json,
    stopNote: "Stopping: removing the trial's scratch keys…",
    noteWithJson: true,
    leaving: `Leaving now: keys under ${hashTag === undefined ? scratchPrefix(runId) : scratchPrefix(hashTag, true)} may be left behind.`,
    progress: (e: TrialEvent) => (e.kind === 'progress' ? renderTrialProgress(e) : null),
    run: (emit, signal) =>
      runTrial({ runId, settings, spec, connector, ...(hashTag === undefined ? {} : { hashTag }) }, emit, signal).finally(() => connector.close()),
    failed: (error) => failed(error, args.json),
  });
  if (run === null) return 1;
  const { end, code } = run;
  process.stdout.write(args.json ? `${JSON.stringify(trialsJson(end.report, end.kind))}\n` : trialsText(end.report, end.kind));
  return code;
}
