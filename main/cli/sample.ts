import type { SamplingEvent } from '../../app/schemas/sampling';
import { withCliPool } from './cliPool';
import type { ProfileSpec } from '../core/pool/types';
import { runSampling, type SamplingWhere } from '../core/sampling/runSampling';
import { samplingWhere } from '../core/sampling/samplingWhere';
import { interruptible } from './interrupt';
import { renderSamplingProgress } from './progressBar';
import { parseSampleArgs } from './sampleArgs';
import { specFromFlags } from './topologyFlags';
import { sampleJson, sampleText } from './sampleOutput';

/** A cluster's masters (CLUSTER NODES, through a pool used for that alone), or the one server. */
async function whereFor(spec: ProfileSpec): Promise<(connectionName: string) => SamplingWhere> {
  return withCliPool(spec, (pool, id) => samplingWhere(pool, id, spec, spec.db));
}

/** `cacheboard sample`: exit code 0 when done, 1 on failure, 128 + the signal's number when stopped by Ctrl-C (130), SIGTERM (143) or SIGHUP (129); the partial report is printed. */
export async function sample(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseSampleArgs(argv, env);
  const spec = specFromFlags(args);
  const where = await whereFor(spec);
  const tty = process.stderr.isTTY === true && !args.json;
  const stop = interruptible(args.json ? null : 'Stopping: reporting what was examined…');
  try {
    const emit = (e: SamplingEvent) => {
      if (e.kind === 'progress' && tty) process.stderr.write(`\r${renderSamplingProgress(e)}\x1b[K`);
    };
    const end = await runSampling(
      { options: { ...args.settings, db: spec.db }, ...where(`cacheboard:sampling:cli${process.pid}`) },
      emit,
      stop.signal,
    );
    if (tty) process.stderr.write('\r\x1b[K');
    if (end.kind === 'failed') {
      process.stderr.write(`cacheboard: ${end.error.message}\n`);
      if (args.json) process.stdout.write(`${JSON.stringify({ error: end.error })}\n`);
      return 1;
    }
    process.stdout.write(args.json ? `${JSON.stringify(sampleJson(end.report))}\n` : sampleText(end.report));
    return end.kind === 'cancelled' ? stop.cancelledCode() : 0;
  } finally {
    stop.dispose();
  }
}
