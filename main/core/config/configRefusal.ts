import type { ConfigRefusal } from '../../../app/schemas/config';
import { readRefusal } from '../redis/refusal';

export type RefusalKind = ConfigRefusal['kind'];

/**
 * A CONFIG refusal, from Redis's reply: NOPERM is the ACL; an unknown, unsupported or disabled
 * command is a rename (`rename-command CONFIG ""`, or a managed service's own refusal).
 */
export function refusalOf(err: unknown): { kind: RefusalKind; reply: string } | undefined {
  const r = readRefusal(err, ['CONFIG']);
  return r === undefined ? undefined : { kind: r.kind === 'acl' ? 'acl' : 'renamed', reply: r.message };
}

const MEANING: Readonly<Record<RefusalKind, string>> = {
  renamed:
    "CONFIG is not available: the server renamed or disabled the command, as managed services (Amazon ElastiCache, Azure Cache for Redis, Google Memorystore) do. Its settings cannot be read or changed from here: use the provider's console or parameter groups.",
  acl: "The Redis user this session connects as may not run CONFIG (ACL). Reading needs +config|get, editing +config|set, rewriting +config|rewrite: ask the server's admin for them, or use a profile whose user has them.",
};

/** The one note a page shows for every node that refused: what it means, on how many nodes. */
export function refusalNote(kind: RefusalKind, reply: string, refused: number, of: number): ConfigRefusal {
  const where = refused === of ? (of === 1 ? '' : ` (all ${of} nodes)`) : ` (${refused} of ${of} nodes)`;
  return { kind, nodes: refused, reply, message: `${MEANING[kind]}${where}` };
}

/** A write refused the same way, as one node's error: NOPERM for the ACL, UNSUPPORTED for a rename. */
export function refusalError(err: unknown): { code: 'NOPERM' | 'UNSUPPORTED'; message: string } | undefined {
  const r = refusalOf(err);
  if (r === undefined) return undefined;
  return { code: r.kind === 'acl' ? 'NOPERM' : 'UNSUPPORTED', message: `${MEANING[r.kind]} Redis replied: ${r.reply}` };
}
