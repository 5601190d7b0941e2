import type { ConfigCell, ConfigGroup, ConfigNode, ConfigParam, ConfigSetResult } from '../../../app/schemas/config';

/** Beyond this many nodes the page shows a picker and this many columns at first. */
export const MAX_COLUMNS = 6;

export const GROUP_LABELS: Readonly<Record<ConfigGroup, string>> = {
  memory: 'Memory',
  persistence: 'Persistence',
  replication: 'Replication',
  security: 'Security',
  clients: 'Clients and network',
  cluster: 'Cluster',
  others: 'Others',
};

/** Invisible characters (bidi overrides, zero-width, separators) beside the controls below. */
const INVISIBLE = /[\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** Control and invisible characters as escapes (`\x0a`, `\u202e`), so a value shows what it holds. */
export function visibleText(value: string): string {
  let out = '';
  for (const c of value) {
    const code = c.codePointAt(0) ?? 0;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (control) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (INVISIBLE.test(c)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return out;
}

export type CellShown = { kind: 'value'; text: string } | { kind: 'empty'; text: string } | { kind: 'absent'; text: string } | { kind: 'secret'; text: string };

/** What a cell reads as: the value as text, "(empty)", "—" where the node has no such parameter or was not read, or a secret's "hidden". */
export function cellShown(cell: ConfigCell | undefined): CellShown {
  if (cell?.secretSet !== undefined) return { kind: 'secret', text: cell.secretSet ? 'hidden · set' : 'hidden · not set' };
  if (cell?.value === undefined) return { kind: 'absent', text: '—' };
  if (cell.value === '') return { kind: 'empty', text: '(empty)' };
  return { kind: 'value', text: visibleText(cell.value) };
}

export interface Filter {
  query: string;
  /** Only parameters whose values differ in a way that matters or drifts (per-node ones like port left out). */
  diffsOnly: boolean;
  /** The parameter being edited: kept in view when its new value no longer matches, with its form and answers. */
  keep?: string | undefined;
}

/** Whether a parameter is shown: its name or an alias, or a shown column's value, holds the query; and it differs, if asked. */
export function matches(p: ConfigParam, f: Filter, columns: readonly number[]): boolean {
  if (p.name === f.keep) return true;
  if (f.diffsOnly && !columns.some((i) => p.cells[i]?.diff !== undefined && p.cells[i]?.diff?.kind !== 'expected')) return false;
  const q = f.query.trim().toLowerCase();
  if (q === '') return true;
  if (p.name.toLowerCase().includes(q) || (p.aliases ?? []).some((a) => a.toLowerCase().includes(q))) return true;
  return columns.some((i) => p.cells[i]?.value?.toLowerCase().includes(q) === true);
}

export interface Section {
  group: ConfigGroup;
  label: string;
  params: ConfigParam[];
}

/** The shown parameters by section, in the server's order (sections in order, names sorted within). */
export function sections(params: readonly ConfigParam[], f: Filter, columns: readonly number[]): Section[] {
  const out: Section[] = [];
  for (const p of params) {
    if (!matches(p, f, columns)) continue;
    const last = out.at(-1);
    if (last?.group === p.group) last.params.push(p);
    else out.push({ group: p.group, label: GROUP_LABELS[p.group], params: [p] });
  }
  return out;
}

/** How many parameters differ between nodes: in all, and those known to matter (per-node ones not counted). */
export function diffCounts(params: readonly ConfigParam[]): { differ: number; matter: number } {
  let differ = 0;
  let matter = 0;
  for (const p of params) {
    if (p.differs === 'matters' || p.differs === 'drift') differ++;
    if (p.differs === 'matters') matter++;
  }
  return { differ, matter };
}

/** The columns shown first: every node up to MAX_COLUMNS, in the listed order (each master before its replicas). */
export function defaultColumns(nodes: readonly ConfigNode[]): string[] {
  return nodes.slice(0, MAX_COLUMNS).map((n) => n.address);
}

/** One node's outcome of a CONFIG SET, in words. */
export function setOutcome(r: ConfigSetResult, secret: boolean): string {
  if (!r.ok) return r.error?.message ?? 'failed';
  if (secret) return 'set (the value stays hidden)';
  const before = r.before === undefined ? '' : `${r.before === '' ? '(empty)' : visibleText(r.before)} → `;
  return `set: ${before}${r.after === undefined ? '(not read back)' : r.after === '' ? '(empty)' : visibleText(r.after)}`;
}
