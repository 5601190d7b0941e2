import { BIG_OMEM_BYTES, NEAR_LIMIT_SHARE, type BufferLimits, type ClientKind, type ClientMark, type ClientRow } from '../../../app/schemas/clients';
import { firstLimit, limitOf } from './bufferLimits';
import type { ListedClient } from '../redis/clientList';

/**
 * The class CLIENT LIST's flags put a client in, as Redis picks the output-buffer limit:
 * M a master link, S a replica (a MONITOR client carries S too, but is held as normal),
 * P a subscriber, anything else normal.
 */
export function kindOf(flags: string): ClientKind {
  if (flags.includes('M')) return 'master';
  if (flags.includes('S') && !flags.includes('O')) return 'replica';
  if (flags.includes('P')) return 'pubsub';
  return 'normal';
}

export interface MarkContext {
  /** Undefined when CONFIG GET was refused: no "near the limit" then. */
  limits: BufferLimits | undefined;
  idleSeconds: number;
  /** Addresses of Cacheboard's own connections (ownClients). */
  own: ReadonlySet<string>;
}

/**
 * A listed client with its class, its share of its limit and why it stands out. Long idle
 * counts normal clients only: a subscriber, a MONITOR or a blocked client waits by design.
 */
export function markClient(c: ListedClient, ctx: MarkContext): ClientRow {
  const kind = kindOf(c.flags);
  const marks: ClientMark[] = [];
  let limitShare: number | undefined;
  if (ctx.limits !== undefined) {
    const limit = firstLimit(limitOf(ctx.limits, kind));
    if (limit !== undefined) limitShare = c.omem / limit;
    if (limitShare !== undefined ? limitShare >= NEAR_LIMIT_SHARE : c.omem >= BIG_OMEM_BYTES) marks.push('omem');
  }
  const blocked = c.flags.includes('b');
  const monitor = c.flags.includes('O');
  const pubsub = c.flags.includes('P') || c.subs > 0;
  if (kind === 'normal' && !blocked && !monitor && !pubsub && c.idle >= ctx.idleSeconds) marks.push('idle');
  if (blocked) marks.push('blocked');
  if (monitor) marks.push('monitor');
  if (pubsub) marks.push('pubsub');
  if (ctx.own.has(c.addr)) marks.push('ours');
  return { ...c, kind, ...(limitShare === undefined ? {} : { limitShare }), marks };
}
