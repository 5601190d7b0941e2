import { compileGlob } from '../redis/glob';
import { keyOf, type MonitorEntry } from './monitorLine';

export interface MonitorFilter {
  /** Upper-case command names to keep; all when absent or empty. */
  commands?: string[];
  /** Redis-style glob over the key (the first argument of keyed commands). */
  keyGlob?: string;
  /** Keep lines whose client address contains this text. */
  client?: string;
  db?: number;
  /** Keep one matching line in N (1 keeps all). */
  sampleEvery: number;
  /** Hide lines from Cacheboard's own connections (INFO polls and the like). */
  hideOwn: boolean;
}

/** Everything but sampling, which is a per-viewer counter. */
export type LinePredicate = (e: MonitorEntry, own: ReadonlySet<string>) => boolean;

export function compileFilter(f: MonitorFilter): LinePredicate {
  const commands = f.commands !== undefined && f.commands.length > 0 ? new Set(f.commands.map((c) => c.toUpperCase())) : undefined;
  const glob = f.keyGlob === undefined ? undefined : compileGlob(f.keyGlob);
  const { client, db, hideOwn } = f;
  return (e, own) => {
    if (db !== undefined && e.db !== db) return false;
    if (hideOwn && own.has(e.client)) return false;
    if (commands !== undefined && !commands.has(e.command)) return false;
    if (client !== undefined && !e.client.includes(client)) return false;
    if (glob !== undefined) {
      const key = keyOf(e);
      if (key === undefined || !glob(key)) return false;
    }
    return true;
  };
}
