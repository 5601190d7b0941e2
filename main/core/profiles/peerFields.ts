import type { Ignored } from './candidate';

/**
 * Reading a peer's exported entry: loose JSON written by another program. Each reader returns
 * undefined for absent or empty, and the original value otherwise, so a wrong type still reaches
 * ProfileDraft and is refused there with the entry's index and field.
 */
export type Entry = Record<string, unknown>;

export function isEntry(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value, or undefined when it is absent, null or an empty string (peers write "" for "not set"). */
export function present(v: unknown): unknown {
  return v === undefined || v === null || v === '' ? undefined : v;
}

export function text(v: unknown): string | undefined {
  const p = present(v);
  return p === undefined ? undefined : typeof p === 'string' ? p : String(p);
}

/** Ports and DB numbers: peers write them as numbers or as strings of digits. */
export function int(v: unknown): unknown {
  const p = present(v);
  return typeof p === 'string' && /^\d+$/.test(p.trim()) ? Number(p) : p;
}

export function flag(v: unknown): boolean {
  return v === true || v === 'true' || v === 1;
}

/** An object field, or an empty one. */
export function sub(v: unknown): Entry {
  return isEntry(v) ? v : {};
}

/** A private key or certificate held in the file itself (PEM), as opposed to a path to one. */
export function isPem(v: string): boolean {
  return v.trimStart().startsWith('-----BEGIN');
}

/** The keys of `entry` that are set and not in `known`, each with why Cacheboard leaves it. */
export function leftOver(entry: Entry, known: ReadonlySet<string>, whys: Readonly<Record<string, string>>, prefix = ''): Ignored[] {
  return Object.keys(entry)
    .filter((k) => !known.has(k) && present(entry[k]) !== undefined && entry[k] !== false)
    .map((k) => ({ field: prefix + k, why: whys[k] ?? 'not used by Cacheboard' }));
}

/** Put `value` into `draft` when set, and note the mapping "from -> to" for the preview. */
export function setIf(draft: Entry, mapped: string[], to: string, value: unknown, from: string): void {
  if (value === undefined) return;
  draft[to] = value;
  mapped.push(from === to ? to : `${from} → ${to}`);
}

/** Name, host, port and DB, read alike from RedisInsight's and ARDM's entries (the name falls back to host:port). */
export function mapAddress(e: Entry, draft: Entry, mapped: string[]): void {
  const host = text(e.host);
  const port = int(e.port);
  setIf(draft, mapped, 'name', text(e.name) ?? text(e.connectionName) ?? (host === undefined ? undefined : `${host}:${String(port ?? 6379)}`), 'name');
  setIf(draft, mapped, 'host', host, 'host');
  setIf(draft, mapped, 'port', port, 'port');
  setIf(draft, mapped, 'db', int(e.db), 'db');
}
