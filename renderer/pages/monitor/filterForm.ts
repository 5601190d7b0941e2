import type { StreamInput } from '../../../app/contract';
import { numberInput } from '../../lib/formInput';

export type FilterInput = NonNullable<StreamInput<'monitor.watch'>['filter']>;

/** The filter controls as typed: numbers stay strings until they are sent. */
export interface FilterForm {
  /** Command names separated by spaces or commas: "get set hset". */
  commands: string;
  keyGlob: string;
  client: string;
  db: string;
  sampleEvery: string;
  hideOwn: boolean;
}

export const DEFAULT_FILTER: FilterForm = { commands: '', keyGlob: '', client: '', db: '', sampleEvery: '1', hideOwn: true };

/**
 * The contract's filter from the form; empty inputs are left out. Checking is the
 * server's: a bad value ends the stream with its message on the field (see controlOf).
 */
export function toFilter(f: FilterForm): FilterInput {
  const out: FilterInput = { hideOwn: f.hideOwn };
  const commands = f.commands.split(/[\s,]+/).filter((c) => c !== '');
  if (commands.length > 0) out.commands = commands;
  if (f.keyGlob !== '') out.keyGlob = f.keyGlob;
  if (f.client.trim() !== '') out.client = f.client.trim();
  const db = numberInput(f.db);
  if (db !== undefined) out.db = db;
  const every = numberInput(f.sampleEvery);
  if (every !== undefined) out.sampleEvery = every;
  return out;
}

export type FilterControl = Exclude<keyof FilterForm, 'hideOwn'>;
const CONTROLS: readonly FilterControl[] = ['commands', 'keyGlob', 'client', 'db', 'sampleEvery'];

/** The control a server error names: `filter.keyGlob`, `filter.commands.3`. */
export function controlOf(field: string | undefined): FilterControl | undefined {
  const name = /^filter\.([A-Za-z]+)/.exec(field ?? '')?.[1];
  return CONTROLS.find((c) => c === name);
}

/** The filter in a few words, for the note a restart leaves in the list. */
export function describeFilter(f: FilterInput): string {
  const parts: string[] = [];
  if (f.commands !== undefined) parts.push(f.commands.join(' ').toUpperCase());
  if (f.keyGlob !== undefined) parts.push(`keys ${f.keyGlob}`);
  if (f.client !== undefined) parts.push(`client ~ ${f.client}`);
  if (f.db !== undefined) parts.push(`db ${f.db}`);
  if (f.sampleEvery !== undefined && f.sampleEvery !== 1) parts.push(`1 in ${f.sampleEvery}`);
  parts.push(f.hideOwn === false ? 'own traffic shown' : 'own traffic hidden');
  return parts.join(' · ');
}
