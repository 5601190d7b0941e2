import { randomBytes } from 'node:crypto';
import type { TrialEvent } from '../../app/schemas/trials';
import { privateConnector } from '../core/trials/connector';
import { runTrial, type TrialSettings } from '../core/trials/runTrial';
import { scratchPrefix } from '../core/trials/scratch';
import { renderTrialProgress } from './progressBar';
import { singleNodeSpec, specFromFlags } from './topologyFlags';
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

/** `cacheboard trials`: exit code 0 when done, 1 on failure, 130 when stopped by Ctrl-C (scratch keys removed all the same). */
export async function trials(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseTrialsArgs(argv, env);
  const spec = await singleNodeSpec(specFromFlags(args), 'Pipeline trials');
  // The pid names the run in CLIENT LIST; the random part keeps two hosts' runs apart on one server.
  const runId = `cli${process.pid}_${randomBytes(3).toString('hex')}`;
  const tty = process.stderr.isTTY === true && !args.json;
  const abort = new AbortController();
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) {
      process.stderr.write(`\nLeaving now: keys under ${scratchPrefix(runId)} may be left behind.\n`);
      process.exit(130);
    }
    interrupted = true;
    process.stderr.write("\nStopping: removing the trial's scratch keys… (Ctrl-C again to quit now)\n");
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  const connector = privateConnector(spec);
  try {
    const emit = (e: TrialEvent) => {
      if (e.kind === 'progress' && tty) process.stderr.write(`\r${renderTrialProgress(e)}\x1b[K`);
    };
    const settings: TrialSettings = { ...args.settings, db: spec.db };
    const end = await runTrial({ runId, settings, spec, connector }, emit, abort.signal);
    if (tty) process.stderr.write('\r\x1b[K');
    if (end.kind === 'failed') {
      const { code, field } = end.error;
      const flag = field === undefined ? undefined : (FLAG_OF_FIELD[field] ?? field);
      // The core's text names the contract's field ("(confirmNonEmpty)"); a shell user knows the flag.
      const message = flag === undefined ? end.error.message : end.error.message.replaceAll(`(${field})`, `(--${flag})`);
      process.stderr.write(`cacheboard: ${flag === undefined ? '' : `--${flag}: `}${message}\n`);
      if (args.json) process.stdout.write(`${JSON.stringify({ error: { code, message, ...(flag === undefined ? {} : { flag }) } })}\n`);
      return 1;
    }
    process.stdout.write(args.json ? `${JSON.stringify(trialsJson(end.report, end.kind))}\n` : trialsText(end.report, end.kind));
    return end.kind === 'cancelled' ? 130 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    await connector.close();
  }
}
