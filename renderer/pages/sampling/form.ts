import type { CallInput } from '../../../app/contract';
import type { SampleMethod } from '../../../app/schemas/sampling';
import { numberInput } from '../../lib/formInput';

type StartInput = CallInput<'sampling.start'>;

/** The run controls as typed: every number is a string until it is sent. */
export interface RunForm {
  /** Empty: the profile's own DB. */
  db: string;
  method: SampleMethod;
  samples: string;
  match: string;
  scanCount: string;
  pauseMs: string;
  memorySamples: string;
}

/** The contract's defaults, written out so the inputs show what a run will use. */
export const DEFAULT_FORM: RunForm = {
  db: '',
  method: 'sample',
  samples: '10000',
  match: '',
  scanCount: '1000',
  pauseMs: '0',
  memorySamples: '5',
};

export const METHODS = {
  sample: { label: 'Sample', detail: 'N keys drawn with RANDOMKEY: quick on any size, figures are estimates with a 95% CI.' },
  census: { label: 'Full census', detail: 'Every key, walked with SCAN: exact figures, takes time on a big DB.' },
} as const satisfies Record<SampleMethod, { label: string; detail: string }>;

export const methodNames = Object.keys(METHODS) as SampleMethod[];

/** Inputs that can carry a server error; the names are the contract's field paths. */
export const CONTROLS = ['db', 'method', 'samples', 'match', 'scanCount', 'pauseMs', 'memorySamples'] as const;
export type Control = (typeof CONTROLS)[number];

export function controlOf(field: string | undefined): Control | undefined {
  return (CONTROLS as readonly string[]).includes(field ?? '') ? (field as Control) : undefined;
}

/**
 * `sampling.start`'s input from the form. Inputs the chosen method does not use are
 * left out (samples for a census; MATCH and COUNT for a sample), and so are empty
 * ones: the contract's defaults apply. Checking is the server's (its messages land
 * beside the inputs), so nothing here repeats its rules.
 */
export function toOptions(profileId: string, f: RunForm): StartInput {
  const o: StartInput = { profileId, method: f.method };
  const put = <K extends 'db' | 'samples' | 'scanCount' | 'pauseMs' | 'memorySamples'>(key: K, raw: string) => {
    const n = numberInput(raw);
    if (n !== undefined) o[key] = n;
  };
  put('db', f.db);
  if (f.method === 'sample') put('samples', f.samples);
  if (f.method === 'census') {
    if (f.match !== '') o.match = f.match;
    put('scanCount', f.scanCount);
  }
  put('pauseMs', f.pauseMs);
  put('memorySamples', f.memorySamples);
  return o;
}

/** The DB a run with this form reads: the typed one, else the profile's. */
export function dbOf(f: RunForm, profileDb: number): number {
  const n = numberInput(f.db);
  return typeof n === 'number' ? n : profileDb;
}
