import type { CallInput } from '../../../../app/contract';
import type { KeyType } from '../../../../app/schemas/sampling';
import { numberInput } from '../../../lib/formInput';

/** The actions the Keys page offers (the CLI's export writes a file on the server's disk: not here). */
export type PageOp = 'delete' | 'expire' | 'persist';
export type TtlFilter = 'any' | 'none' | 'below' | 'above';

/** Where an action was asked for: a folder of the tree, or the list with its filters. */
export interface ActionTarget {
  source: 'folder' | 'list';
  /** The glob, typed escaped as the find bar shows it (`user:*`, `bin:\xff*`). */
  match: string;
  /** Its bytes, base64, as the contract carries them. */
  matchB64: string;
  type: KeyType | undefined;
  noTtl: boolean;
}

/** The dialog's inputs, as typed: numbers stay text until sent, so the contract's schema names what is wrong. */
export interface ActionForm {
  op: PageOp;
  type: KeyType | '';
  ttl: TtlFilter;
  ttlSeconds: string;
  idleMin: string;
  minMemory: string;
  /** Set TTL: seconds, only keys with none (EXPIRE NX), and the spread in percent. */
  seconds: string;
  onlyNoTtl: boolean;
  jitter: string;
  /** No latency budget: an explicit choice, off by default. */
  fullSpeed: boolean;
}

/** The form a target opens with: its own filters, the action clicked, the rest at the contract's defaults. */
export function formFor(target: ActionTarget, op: PageOp): ActionForm {
  return {
    op,
    type: target.type ?? '',
    ttl: target.noTtl ? 'none' : 'any',
    ttlSeconds: '',
    idleMin: '',
    minMemory: '',
    seconds: '',
    onlyNoTtl: false,
    jitter: '',
    fullSpeed: false,
  };
}

/** A decimal (the jitter may be 2.5 %) as a number; anything else goes out as typed for the schema to name. */
function decimalInput(raw: string): number | undefined {
  const s = raw.trim();
  if (s === '') return undefined;
  return /^\d+(\.\d+)?$/.test(s) ? Number(s) : (s as unknown as number);
}

/** `*` as base64: the glob of every key. */
const STAR = 'Kg==';

/**
 * The selection covers the whole DB: the glob is exactly `*` and no filter narrows it. The
 * server asks for the DB typed back then (like the Bulk load page's flush and swap).
 */
export function isWholeDb(form: ActionForm, target: ActionTarget): boolean {
  return target.matchB64 === STAR && form.type === '' && form.ttl === 'any' && form.idleMin.trim() === '' && form.minMemory.trim() === '';
}

export type StartInput = CallInput<'keys.actions.start'>;

/**
 * What `keys.actions.start` is sent for this form; `confirm` is the DB as typed back (whole-DB
 * runs only); `resume` the id of a cut run to go on with (the server then takes its selection and action).
 */
export function startInput(p: {
  form: ActionForm;
  target: ActionTarget;
  profileId: string;
  db: number;
  dryRun: boolean;
  confirm: string;
  resume?: string;
}): StartInput {
  const { form } = p;
  const selection: StartInput['selection'] = { match: p.target.matchB64, ttl: form.ttl };
  if (form.type !== '') selection.type = form.type;
  if (form.ttl === 'below' || form.ttl === 'above') {
    const ttlSeconds = numberInput(form.ttlSeconds);
    if (ttlSeconds !== undefined) selection.ttlSeconds = ttlSeconds;
  }
  const idle = numberInput(form.idleMin);
  if (idle !== undefined) selection.idleMinSeconds = idle;
  const memory = numberInput(form.minMemory);
  if (memory !== undefined) selection.minMemoryBytes = memory;

  const input: StartInput = {
    profileId: p.profileId,
    db: p.db,
    selection,
    action: form.op === 'expire' ? expireAction(form) : { op: form.op },
    pace: { maxLatencyMs: form.fullSpeed ? null : 2 },
    dryRun: p.dryRun,
  };
  const confirmDb = numberInput(p.confirm);
  if (!p.dryRun && confirmDb !== undefined) input.confirmDb = confirmDb;
  if (!p.dryRun && p.resume !== undefined) input.resume = p.resume;
  return input;
}

function expireAction(form: ActionForm): StartInput['action'] {
  // An empty box goes out as the empty text: the schema then says "seconds must be a number" beside it.
  const seconds = numberInput(form.seconds) ?? (form.seconds as unknown as number);
  const jitterPct = decimalInput(form.jitter);
  return { op: 'expire', seconds, onlyNoTtl: form.onlyNoTtl, ...(jitterPct === undefined ? {} : { jitterPct }) };
}

/** Inputs a refusal can point at, named as the contract's dotted paths. */
export const CONTROLS = [
  'selection.type',
  'selection.ttl',
  'selection.ttlSeconds',
  'selection.idleMinSeconds',
  'selection.minMemoryBytes',
  'action.seconds',
  'action.jitterPct',
  'pace.maxLatencyMs',
  'confirmDb',
] as const;
export type Control = (typeof CONTROLS)[number];

/** The input an error's `field` belongs to; undefined for one the dialog has no input for (profileId, match). */
export function controlOf(field: string | undefined): Control | undefined {
  return field !== undefined && (CONTROLS as readonly string[]).includes(field) ? (field as Control) : undefined;
}
