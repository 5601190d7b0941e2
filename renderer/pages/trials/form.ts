import type { CallInput } from '../../../app/contract';
import type { TrialKind } from '../../../app/schemas/trials';
import { numberInput } from '../../lib/formInput';

type StartInput = CallInput<'trials.start'>;

/** The inputs each trial takes besides the shared ones, as typed (strings until sent). */
export interface TrialInputs {
  pipeline: { n: string; batch: string; sweepN: string };
  multiplex: { n: string; batch: string; dbs: string };
  load: { clients: string; n: string; dataSize: string; keyspace: string };
}

/** The form as typed; each trial keeps its own inputs, so switching trials loses nothing. */
export interface TrialForm {
  trial: TrialKind;
  /** Empty: the profile's own DB. */
  db: string;
  /** Run through the latency proxy, adding `latencyMs` each way. */
  proxy: boolean;
  latencyMs: string;
  confirmNonEmpty: boolean;
  /** Pipeline trial: also sweep MULTI sizes 1..100. */
  sweep: boolean;
  inputs: TrialInputs;
}

/** The contract's defaults written out, so the inputs show what a run will use. */
export const DEFAULT_FORM: TrialForm = {
  trial: 'pipeline',
  db: '',
  proxy: false,
  latencyMs: '0.3',
  confirmNonEmpty: false,
  sweep: true,
  inputs: {
    pipeline: { n: '100000', batch: '1000', sweepN: '10000' },
    multiplex: { n: '5000', batch: '10', dbs: '5' },
    load: { clients: '50', n: '100000', dataSize: '3', keyspace: '100000' },
  },
};

export const TRIALS = {
  pipeline: {
    label: 'Pipeline',
    detail:
      'N SETs four ways: one round trip each, pipelined batches, MULTI/EXEC around each, pipelined MULTI/EXEC; then MULTI sizes 1 to 100, plain against pipelined.',
  },
  multiplex: {
    label: 'Multiplex',
    detail: 'INCRs spread over several DBs in batches: one blocking client that SELECTs, the per-DB multiplexed pool, and fire-and-forget.',
  },
  load: {
    label: 'Load',
    detail:
      'C clients with one request in flight each, N SETs then N GETs of D bytes over R random keys (like redis-benchmark): req/s and latency percentiles.',
  },
} as const satisfies Record<TrialKind, { label: string; detail: string }>;

export const trialKinds = Object.keys(TRIALS) as TrialKind[];

export type InputName<K extends TrialKind> = keyof TrialInputs[K] & string;

/** Each trial's inputs, in order: label and a hint on what it means. */
export const INPUTS: { [K in TrialKind]: readonly { name: InputName<K>; label: string; hint: string }[] } = {
  pipeline: [
    { name: 'n', label: 'SETs per variant (N)', hint: 'the same N keys, each variant' },
    { name: 'batch', label: 'Batch (B)', hint: 'commands per pipeline / transaction' },
    { name: 'sweepN', label: 'SETs per sweep point', hint: 'for each MULTI size and mode' },
  ],
  multiplex: [
    { name: 'n', label: 'INCRs in all', hint: 'spread over the DBs' },
    { name: 'batch', label: 'Batch', hint: 'INCRs per batch, one DB each' },
    { name: 'dbs', label: 'DBs', hint: 'this many, from the DB on' },
  ],
  load: [
    { name: 'clients', label: 'Clients (C)', hint: 'connections, one request each' },
    { name: 'n', label: 'Requests (N)', hint: 'per command: N SETs, N GETs' },
    { name: 'dataSize', label: 'Value bytes (D)', hint: 'size of each SET value' },
    { name: 'keyspace', label: 'Random keys (R)', hint: 'keys drawn from this many' },
  ],
};

/** Inputs that can carry a server error; the names are the contract's field paths. */
export const CONTROLS = ['db', 'latencyMs', 'confirmNonEmpty', 'sweep', 'n', 'batch', 'sweepN', 'dbs', 'clients', 'dataSize', 'keyspace'] as const;
export type Control = (typeof CONTROLS)[number];

export function controlOf(field: string | undefined): Control | undefined {
  return (CONTROLS as readonly string[]).includes(field ?? '') ? (field as Control) : undefined;
}

/**
 * A decimal such as "0.3" as a number. Anything else (empty included: the proxy
 * is on, so a delay is needed) goes out as typed for the contract to name.
 */
export function decimalInput(raw: string): number {
  const s = raw.trim();
  if (/^-?(\d+(\.\d+)?|\.\d+)$/.test(s)) return Number(s);
  return s as unknown as number;
}

/**
 * `trials.start`'s input from the form: the chosen trial's inputs only, empty ones
 * left out (the contract's defaults apply). The server checks everything and its
 * messages land beside the inputs, so nothing here repeats its rules.
 */
export function toOptions(profileId: string, f: TrialForm): StartInput {
  const common = {
    profileId,
    confirmNonEmpty: f.confirmNonEmpty,
    ...numbers({ db: f.db }),
    ...(f.proxy ? { latencyMs: decimalInput(f.latencyMs) } : {}),
  };
  switch (f.trial) {
    case 'pipeline': {
      const { sweepN, ...rest } = f.inputs.pipeline;
      return { ...common, trial: 'pipeline', sweep: f.sweep, ...numbers(f.sweep ? { ...rest, sweepN } : rest) };
    }
    case 'multiplex':
      return { ...common, trial: 'multiplex', ...numbers(f.inputs.multiplex) };
    case 'load':
      return { ...common, trial: 'load', ...numbers(f.inputs.load) };
  }
}

/** Typed whole numbers by name, empty ones left out. */
function numbers<T extends Record<string, string>>(raw: T): { [K in keyof T]?: number } {
  const out: { [K in keyof T]?: number } = {};
  for (const [k, v] of Object.entries(raw)) {
    const n = numberInput(v);
    if (n !== undefined) out[k as keyof T] = n;
  }
  return out;
}
