import { bulkText } from './replyText';
import type { AudienceLink } from './audienceLink';

/** usec per command name from INFO commandstats (`cmdstat_bitop:calls=3,usec=41,…`). */
export type CommandUsec = Map<string, number>;

export function parseCommandStats(info: string): CommandUsec {
  const out: CommandUsec = new Map();
  for (const m of info.matchAll(/^cmdstat_([^:]+):.*?\busec=(\d+)/gm)) out.set(m[1] as string, Number(m[2]));
  return out;
}

export async function commandStats(link: AudienceLink): Promise<CommandUsec | null> {
  const [r] = await link.send([['INFO', 'commandstats']]);
  const text = bulkText(r);
  // INFO may be renamed or denied by ACL: the report then says server time is unknown (-1).
  return text === null ? null : parseCommandStats(text);
}

/**
 * Server time the named commands took between two snapshots. Only the names the strategy
 * sent itself count: commands a script runs are also in commandstats (under their own
 * names) and already inside EVALSHA's usec, so counting them again would double it.
 */
export function usecBetween(before: CommandUsec, after: CommandUsec, names: Iterable<string>): number {
  let sum = 0;
  for (const n of names) sum += (after.get(n) ?? 0) - (before.get(n) ?? 0);
  return sum;
}
