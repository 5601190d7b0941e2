import { AppError } from '../../app/errors';
import { KeyAction, KeySelection, Pace, type KeyActionOp } from '../../app/schemas/keyActions';
import { KeyType } from '../../app/schemas/sampling';
import type { RunAction } from '../core/keys/actions/actionPlan';
import { int, oneOf, parseFlags, throughSchema } from './flags';
import { connectionFlags, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';
import { KEYS_HELP, matchFlag } from './keysArgs';

export interface KeyActionArgs extends ConnectionFlags {
  op: KeyActionOp;
  /** Absent with --resume (the run's own selection and action are used). */
  selection: KeySelection | undefined;
  action: RunAction | undefined;
  pace: Pace;
  resume: string | undefined;
  out: string | undefined;
  dryRun: boolean;
  yes: boolean;
  json: boolean;
}

const OPTIONS = {
  url: { type: 'string' },
  ...TOPOLOGY_OPTIONS,
  match: { type: 'string' },
  type: { type: 'string' },
  'ttl-below': { type: 'string' },
  'ttl-above': { type: 'string' },
  'no-ttl': { type: 'boolean' },
  'idle-min': { type: 'string' },
  'min-memory': { type: 'string' },
  ttl: { type: 'string' },
  jitter: { type: 'string' },
  'no-ttl-only': { type: 'boolean' },
  'max-latency-ms': { type: 'string' },
  'full-speed': { type: 'boolean' },
  'max-replica-lag-bytes': { type: 'string' },
  resume: { type: 'string' },
  out: { type: 'string' },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** A flag's number (decimals allowed), undefined when absent. */
function num(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(v)) throw new AppError('VALIDATION', `--${flag} must be a number, not "${v}"`, flag);
  return Number(v);
}

function only(op: KeyActionOp, want: KeyActionOp, flag: string, given: unknown): void {
  if (given !== undefined && op !== want) throw new AppError('VALIDATION', `--${flag} is for \`keys ${want}\` only`, flag);
}

/** `keys delete|expire|persist|export` flags, checked by the contract's schemas (errors name the flag). */
export function parseKeyActionArgs(op: KeyActionOp, argv: string[], env: NodeJS.ProcessEnv): KeyActionArgs {
  const v = parseFlags(argv, OPTIONS, KEYS_HELP);
  const resume = v.resume;
  if (resume !== undefined && !/^[A-Za-z0-9_-]{4,64}$/.test(resume)) throw new AppError('VALIDATION', `--resume must be a run id, not "${resume}"`, 'resume');
  if (resume !== undefined && v['dry-run']) throw new AppError('VALIDATION', '--dry-run and --resume exclude each other: a resumed run acts', 'dry-run');
  only(op, 'expire', 'ttl', v.ttl);
  only(op, 'expire', 'jitter', v.jitter);
  only(op, 'expire', 'no-ttl-only', v['no-ttl-only']);
  only(op, 'export', 'out', v.out);
  const ttlFlags = (['no-ttl', 'ttl-below', 'ttl-above'] as const).filter((f) => v[f] !== undefined);
  if (ttlFlags.length > 1) throw new AppError('VALIDATION', `--${ttlFlags[0] ?? ''} and --${ttlFlags[1] ?? ''} exclude each other`, ttlFlags[1]);
  if (v['full-speed'] && v['max-latency-ms'] !== undefined)
    throw new AppError('VALIDATION', '--full-speed and --max-latency-ms exclude each other', 'full-speed');

  let selection: KeySelection | undefined;
  let action: RunAction | undefined;
  if (resume === undefined) {
    const match = matchFlag(v.match, 'price:eu:*');
    const ttlMode = v['no-ttl'] ? 'none' : v['ttl-below'] !== undefined ? 'below' : v['ttl-above'] !== undefined ? 'above' : undefined;
    selection = throughSchema(
      KeySelection,
      {
        match: match.toString('base64'),
        type: oneOf('type', v.type, KeyType.options),
        ttl: ttlMode,
        ttlSeconds: int('ttl-below', v['ttl-below'], 0) ?? int('ttl-above', v['ttl-above'], 0),
        idleMinSeconds: int('idle-min', v['idle-min'], 0),
        minMemoryBytes: int('min-memory', v['min-memory'], 0),
      },
      (f) =>
        ({
          match: 'match',
          type: 'type',
          ttlSeconds: ttlMode === 'above' ? 'ttl-above' : 'ttl-below',
          idleMinSeconds: 'idle-min',
          minMemoryBytes: 'min-memory',
        })[f] ?? 'match',
    );
    if (op === 'expire' && v.ttl === undefined) throw new AppError('VALIDATION', '--ttl SECONDS is required: the TTL `keys expire` sets', 'ttl');
    action =
      op === 'export'
        ? { op: 'export' }
        : throughSchema(
            KeyAction,
            { op, seconds: int('ttl', v.ttl, 1), jitterPct: num('jitter', v.jitter), onlyNoTtl: v['no-ttl-only'] },
            (f) => ({ seconds: 'ttl', jitterPct: 'jitter', onlyNoTtl: 'no-ttl-only' })[f] ?? 'ttl',
          );
    if (op === 'export' && v.out === undefined && !v['dry-run'])
      throw new AppError('VALIDATION', '--out FILE is required: where the export writes its RESTORE commands', 'out');
  }
  const pace = throughSchema(
    Pace,
    {
      maxLatencyMs: v['full-speed'] ? null : num('max-latency-ms', v['max-latency-ms']),
      maxReplicaLagBytes: int('max-replica-lag-bytes', v['max-replica-lag-bytes'], 0),
    },
    (f) => (f === 'maxLatencyMs' ? 'max-latency-ms' : 'max-replica-lag-bytes'),
  );
  return {
    ...connectionFlags(v, env),
    op,
    selection,
    action,
    pace,
    resume,
    out: v.out,
    dryRun: v['dry-run'] ?? false,
    yes: v.yes ?? false,
    json: v.json ?? false,
  };
}
