import { expiredSubkeys, infoNumber, parseKeyspace } from '../info/infoSnapshot';
import { parseInfo } from '../info/parseInfo';

/** What a run reads of a server's INFO before it starts, each figure only where the server gives it. */
export interface ServerFigures {
  /** Whether modules are loaded, or may be (INFO refused): a module's value says "raw" like a string. */
  modules: boolean;
  /**
   * INFO memory `used_memory_dataset`, when the sampled DB is the only one holding keys:
   * then it is that DB's data, which a sampled memory total can be checked against.
   */
  dataset?: number;
  /** The DB's INFO keyspace `subexpiry` (Redis 7.4+: hashes whose fields expire). */
  subexpiry?: number;
  /** INFO stats `expired_subkeys` (Redis 7.4+: hash fields expired since the start). */
  expiredSubkeys?: number;
}

/** One INFO section's text, or null when it was refused (an ACL without INFO). */
export type InfoText = string | null;

export function serverFigures(db: number, modules: InfoText, memory: InfoText, keyspace: InfoText, stats: InfoText): ServerFigures {
  const out: ServerFigures = { modules: modules === null || /^module:/m.test(modules) };
  const dbs = keyspace === null ? null : parseKeyspace(parseInfo(keyspace)['keyspace']);
  const mine = dbs?.find((k) => k.db === db);
  if (mine?.subexpiry !== undefined) out.subexpiry = mine.subexpiry;
  const dataset = memory === null ? undefined : parseInfo(memory)['memory']?.['used_memory_dataset'];
  // Other DBs' keys are in the same figure, in a share nothing tells: no check then.
  if (dataset !== undefined && dbs !== null && dbs.every((k) => k.db === db || k.keys === 0)) out.dataset = infoNumber(dataset);
  const expired = stats === null ? undefined : expiredSubkeys(parseInfo(stats)['stats']);
  if (expired !== undefined) out.expiredSubkeys = expired;
  return out;
}
