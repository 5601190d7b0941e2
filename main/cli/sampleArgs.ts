import { AppError } from '../../app/errors';
import { SamplingOptions } from '../../app/schemas/sampling';
import type { SamplingSettings } from '../core/sampling/runSampling';
import { int, parseFlags } from './flags';
import { connectionFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';

export interface SampleArgs extends ConnectionFlags {
  settings: Omit<SamplingSettings, 'db'>;
  json: boolean;
}

export const SAMPLE_HELP = `Usage: cacheboard sample --url redis://[user:pass@]host:port/db [options]

What the keyspace of one DB is made of: types, encodings, sizes, TTLs, the
biggest keys and the key prefixes (split on ':'). Never KEYS, never a value.

  --samples N          RANDOMKEY draws (default 10000); percentages come with
                       their 95% confidence interval, totals scale to DBSIZE
  --full               a census instead: SCAN every key, exact counts
  --match PATTERN      with --full: only keys matching the SCAN pattern
  --scan-count N       with --full: SCAN COUNT (default 1000)
  --pause-ms N         rest this long between batches (a busy production server)
  --memory-samples N   MEMORY USAGE … SAMPLES N for aggregates (default 5; 0 is
                       exact, and slow on huge keys)
  --json               print one JSON object: method, dbsize, keys_examined,
                       seconds, types, encodings, ttl, top_by_memory, namespaces…
                       (and masters with --cluster)

${TOPOLOGY_HELP}  With --cluster every master is sampled (replicas hold copies) and the report
  merges them, with a per-master table; a sample draws from each master in
  proportion to its DBSIZE. With --sentinel the master the sentinels name is sampled.
The URL may also come from REDIS_URL. Ctrl-C, SIGTERM or SIGHUP stops and prints what
was examined (exit code 130, 143 or 129); exit code 1 on failure.
`;

/** The SamplingOptions field each flag sets, so the contract's messages name the flag. */
const FLAG_OF: Record<string, string> = {
  samples: 'samples',
  match: 'match',
  scanCount: 'scan-count',
  pauseMs: 'pause-ms',
  memorySamples: 'memory-samples',
};

/** Flags to validated sampling settings; every error names its flag. */
export function parseSampleArgs(argv: string[], env: NodeJS.ProcessEnv): SampleArgs {
  const v = parseFlags(
    argv,
    {
      url: { type: 'string' },
      ...TOPOLOGY_OPTIONS,
      samples: { type: 'string' },
      full: { type: 'boolean' },
      match: { type: 'string' },
      'scan-count': { type: 'string' },
      'pause-ms': { type: 'string' },
      'memory-samples': { type: 'string' },
      json: { type: 'boolean' },
    },
    SAMPLE_HELP,
  );
  const connection = connectionFlags(v, env);
  const full = v.full ?? false;
  if (full && v.samples !== undefined) {
    throw new AppError('VALIDATION', '--samples and --full exclude each other: a census examines every key', 'samples');
  }
  if (!full && v.match !== undefined) {
    throw new AppError('VALIDATION', '--match needs --full: RANDOMKEY cannot draw from a pattern', 'match');
  }
  if (!full && v['scan-count'] !== undefined) throw new AppError('VALIDATION', '--scan-count needs --full', 'scan-count');
  const raw = {
    profileId: 'cli',
    method: full ? 'census' : 'sample',
    samples: int('samples', v.samples, 0),
    match: v.match,
    scanCount: int('scan-count', v['scan-count'], 0),
    pauseMs: int('pause-ms', v['pause-ms'], 0),
    memorySamples: int('memory-samples', v['memory-samples'], 0),
  };
  const checked = SamplingOptions.safeParse(Object.fromEntries(Object.entries(raw).filter(([, x]) => x !== undefined)));
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const flag = FLAG_OF[String(issue?.path[0])] ?? 'samples';
    throw new AppError('VALIDATION', `--${flag}: ${issue?.message ?? 'invalid'}`, flag);
  }
  const { profileId: _p, db: _d, ...settings } = checked.data;
  return { ...connection, settings, json: v.json ?? false };
}
