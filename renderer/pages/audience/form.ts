import type { CallInput } from '../../../app/contract';
import { STRATEGY_NAMES, type AudienceAttributes, type AudienceLayoutInput, type StrategyName } from '../../../app/schemas/audience';
import type { ProfileView } from '../../../app/schemas/connections';
import { numberInput } from '../../lib/formInput';
import type { AttributePick } from './expression';
import { DEFAULT_LAYOUT, layoutInput, type LayoutForm } from './layout';

type StartInput = CallInput<'audience.start'>;

/** The builder and the run options as typed: numbers stay strings until they are sent. */
export interface AudienceForm {
  /** The expression sent: written by the builder, or typed. */
  where: string;
  /** What the builder's chips hold; a chip click rewrites `where` from them. */
  picks: readonly AttributePick[];
  /** Empty until the server says which days it has: then the first and last of them. */
  from: string;
  to: string;
  strategies: readonly StrategyName[];
  trials: string;
  warmup: string;
  /** Empty: the profile's own DB. */
  db: string;
  /** Where the data keys are: the contract's templates, as typed. */
  layout: LayoutForm;
}

/** The contract's defaults written out, so the inputs show what a run will use. */
export const DEFAULT_FORM: AudienceForm = {
  where: '',
  picks: [],
  from: '',
  to: '',
  strategies: STRATEGY_NAMES,
  trials: '10',
  warmup: '1',
  db: '',
  layout: DEFAULT_LAYOUT,
};

/** What each strategy does, for its checkbox and the table. */
export const STRATEGIES: Record<StrategyName, { label: string; detail: string }> = {
  'bitmap-lua': { label: 'bitmap-lua', detail: 'bitmaps, the whole query in one Lua script on the server' },
  'bitmap-pipeline': { label: 'bitmap-pipeline', detail: 'bitmaps, BITOP and BITCOUNT pipelined from the client' },
  sets: { label: 'sets', detail: 'sets of ids: SINTERSTORE/SUNIONSTORE/SDIFFSTORE, then SINTERCARD per day' },
  zunionstore: { label: 'zunionstore', detail: 'the audience’s per-user zsets of days, ZUNIONSTORE … AGGREGATE SUM' },
};

/** Inputs that can carry a server error; the names are the contract's field paths (`layout.*`: the key layout panel). */
export const CONTROLS = ['where', 'from', 'to', 'strategies', 'trials', 'warmup', 'db', 'layout'] as const;
export type Control = (typeof CONTROLS)[number];

/** The input an error's field belongs to (`strategies.2` is the strategies' box). */
export function controlOf(field: string | undefined): Control | undefined {
  const head = field?.split('.')[0] ?? '';
  return (CONTROLS as readonly string[]).includes(head) ? (head as Control) : undefined;
}

/** Strategies in the contract's run order, whatever order they were ticked in. */
export function toggleStrategy(on: readonly StrategyName[], name: StrategyName, checked: boolean): StrategyName[] {
  return STRATEGY_NAMES.filter((s) => (s === name ? checked : on.includes(s)));
}

/** The DB the page reads and writes: the typed one, else the profile's. Junk stays junk for the server to name. */
export function dbInput(f: Pick<AudienceForm, 'db'>): { db?: number } {
  const db = numberInput(f.db);
  return db === undefined ? {} : { db };
}

/** Where every audience call aims: the DB, and the key layout when it is not the default (see layoutInput). */
export interface AudienceTarget {
  db?: number;
  layout?: AudienceLayoutInput;
}

/** The DB the page's demo data and trials go to, for its headers: the typed one, else the profile's. */
export function shownDb(profile: Pick<ProfileView, 'db'>, f: Pick<AudienceForm, 'db'>): number {
  const db = dbInput(f).db;
  return typeof db === 'number' && Number.isInteger(db) && db >= 0 ? db : profile.db;
}

export function targetOf(profile: Pick<ProfileView, 'topology'>, f: Pick<AudienceForm, 'db'> & Partial<Pick<AudienceForm, 'layout'>>): AudienceTarget {
  const layout = layoutInput(profile, f.layout);
  return { ...dbInput(f), ...(layout === undefined ? {} : { layout }) };
}

/**
 * `audience.start`'s input. The expression goes as typed (the server's error
 * positions count from its first character) and empty numbers are left out (the
 * contract's defaults apply); the server checks everything and its messages land
 * beside the inputs, so nothing here repeats its rules.
 */
export function toOptions(profileId: string, f: AudienceForm): StartInput {
  const o: StartInput = { profileId, ...dbInput(f), where: f.where, from: f.from.trim(), to: f.to.trim(), strategies: [...f.strategies] };
  const trials = numberInput(f.trials);
  const warmup = numberInput(f.warmup);
  if (trials !== undefined) o.trials = trials;
  if (warmup !== undefined) o.warmup = warmup;
  return o;
}

/** The range the server's days cover, filled into empty date inputs (typed ones are kept). */
export function withDiscoveredRange(f: AudienceForm, days: AudienceAttributes['days'] | undefined): AudienceForm {
  if (days?.first === undefined || days.last === undefined) return f;
  if (f.from !== '' && f.to !== '') return f;
  return { ...f, from: f.from === '' ? days.first : f.from, to: f.to === '' ? days.last : f.to };
}
