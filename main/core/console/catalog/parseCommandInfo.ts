import type { CommandDoc } from '../../../../app/schemas/console';
import { commandNameOf, intOf, listOf, textsOf } from './replyShape';

/**
 * What COMMAND INFO says of one command: arity, legacy key range, flags, ACL categories (absent
 * before Redis 6.0), tips (absent before 7.0).
 */
export interface InfoEntry extends Pick<CommandDoc, (typeof INFO_FIELDS)[number]> {
  /** By lower-case full name, "config|set". */
  subcommands: Map<string, InfoEntry>;
}

/** The CommandDoc fields COMMAND INFO fills. */
export const INFO_FIELDS = ['arity', 'firstKey', 'lastKey', 'keyStep', 'flags', 'categories', 'tips'] as const;

/**
 * COMMAND INFO (or, on servers before 7.0, bare COMMAND): one array per command,
 * [name, arity, flags, first key, last key, step, categories (6.0+), tips (7.0+), key specs (7.0+),
 * subcommands (7.0+, the same shape)]. Entries without a usable name are skipped; a name
 * given twice keeps the first. Keyed by lower-case name.
 */
export function parseCommandInfo(reply: unknown, depth = 0): Map<string, InfoEntry> {
  const out = new Map<string, InfoEntry>();
  for (const item of listOf(reply)) {
    const row = listOf(item, 16);
    const name = commandNameOf(row[0])?.toLowerCase();
    if (name === undefined || out.has(name)) continue;
    const entry: InfoEntry = { subcommands: new Map() };
    const arity = intOf(row[1]);
    if (arity !== undefined) entry.arity = arity;
    if (Array.isArray(row[2])) entry.flags = textsOf(row[2]).map((f) => f.toLowerCase());
    const firstKey = intOf(row[3]);
    const lastKey = intOf(row[4]);
    const keyStep = intOf(row[5]);
    if (firstKey !== undefined) entry.firstKey = firstKey;
    if (lastKey !== undefined) entry.lastKey = lastKey;
    if (keyStep !== undefined) entry.keyStep = keyStep;
    if (Array.isArray(row[6])) entry.categories = textsOf(row[6]).map((c) => c.toLowerCase());
    if (Array.isArray(row[7])) entry.tips = textsOf(row[7]);
    // One level of subcommands is all Redis has; a deeper claim is not read.
    if (depth === 0) entry.subcommands = parseCommandInfo(row[9], 1);
    out.set(name, entry);
  }
  return out;
}
