import type { CommandDoc } from '../../../../app/schemas/console';
import { DOCS_FIELDS, type DocsEntry } from './parseCommandDocs';
import { INFO_FIELDS, type InfoEntry } from './parseCommandInfo';

/** "config|set" under CONFIG as "CONFIG SET"; a top-level "get" as "GET". */
function displayName(key: string, parent: string | undefined): string {
  const upper = key.toUpperCase();
  if (parent === undefined) return upper;
  const bar = upper.indexOf('|');
  return `${parent} ${bar >= 0 ? upper.slice(bar + 1).replace(/\|/g, ' ') : upper}`;
}

/** Commands in name order (code units, as the server's own sort would be). */
export function byName(a: CommandDoc, b: CommandDoc): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The fields `keys` of `from` that are set, onto `to`. */
function copyFields<K extends keyof CommandDoc>(to: CommandDoc, from: Pick<CommandDoc, K> | undefined, keys: readonly K[]): void {
  if (from === undefined) return;
  for (const key of keys) {
    const value = from[key];
    if (value !== undefined) to[key] = value;
  }
}

/**
 * COMMAND DOCS and COMMAND INFO merged by name into the contract's CommandDoc, sorted by
 * name: a command either reply knows is listed (a module command may have no docs).
 */
export function mergeCatalog(
  docs: ReadonlyMap<string, DocsEntry> | undefined,
  info: ReadonlyMap<string, InfoEntry> | undefined,
  parent?: string,
): CommandDoc[] {
  const keys = new Set<string>([...(docs?.keys() ?? []), ...(info?.keys() ?? [])]);
  const out: CommandDoc[] = [];
  for (const key of keys) {
    const d = docs?.get(key);
    const i = info?.get(key);
    const name = displayName(key, parent);
    const doc: CommandDoc = { name };
    copyFields(doc, d, DOCS_FIELDS);
    copyFields(doc, i, INFO_FIELDS);
    if (parent === undefined) {
      const subs = mergeCatalog(d?.subcommands, i?.subcommands, name);
      if (subs.length > 0) doc.subcommands = subs;
    }
    out.push(doc);
  }
  return out.sort(byName);
}
