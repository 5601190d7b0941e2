import type { SamplingEvent } from '../../app/schemas/sampling';
import { runCliJob } from './cliJob';
import { withCliPool } from './cliPool';
import type { ProfileSpec } from '../core/pool/types';
import { runSampling, type SamplingWhere } from '../core/sampling/runSampling';
import { samplingWhere } from '../core/sampling/samplingWhere';
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
  const run = await runCliJob({
    json: args.json,
    stopNote: 'Stopping: reporting what was examined…',
    progress: (e: SamplingEvent) => (e.kind === 'progress' ? renderSamplingProgress(e) : null),
    run: (emit, signal) => runSampling({ options: { ...args.settings, db: spec.db }, ...where(`cacheboard:sampling:cli${process.pid}`) }, emit, signal),
  });
  if (run === null) return 1;
  const { end, code } = run;
  process.stdout.write(args.json ? `${JSON.stringify(sampleJson(end.report))}\n` : sampleText(end.report));
  return code;
}
