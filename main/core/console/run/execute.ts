import { performance } from 'node:perf_hooks';
import { AppError } from '../../../../app/errors';
import type { NodeReply } from '../../../../app/schemas/console';
import { specAtAddress } from '../../pool/nodeAddress';
import { ConsoleLink, errorText, type Protocol, type ReplyOptions } from './consoleLink';
import type { ConsoleLinks, ConsoleOwner } from './consoleLinks';
import type { Hop } from './route';

/** What every hop of one run shares. */
export interface ExecContext {
  owner: ConsoleOwner;
  connectionId: string;
  protocol: Protocol;
  db: number;
  reply: ReplyOptions;
  signal: AbortSignal;
  links: ConsoleLinks;
  /** A blocking command (BLPOP, XREAD…): on a connection of its own, closed after, unless inside MULTI. */
  blocking: boolean;
  /** CLIENT SETNAME of the console's connections (the blocking ones get `-block`). */
  name: string;
  /** A cluster profile, its command not aimed at one node: MOVED and ASK are followed once (a node asked for by name answers for itself). */
  followRedirects: boolean;
  /** The profile's spec, to reach the node a MOVED names. */
  profileSpec: Hop['spec'];
  /** After a redirect: the slot map the run used is stale. */
  onRedirect(): void;
}

/** One node's answer, and the connection state after it. */
export interface HopResult {
  node: Omit<NodeReply, 'hint'>;
  db: number;
  protocol: Protocol;
}

const REDIRECT = /^(MOVED|ASK) \d+ (\S+)$/;

/**
 * Send the command to one node on the console's connection there (a blocking one on a fresh
 * connection, closed after), first putting the connection on the run's protocol and DB. A
 * failed exchange (cancel, timeout, a dropped socket) destroys the connection: its replies
 * would be out of step, and the next run opens a new one. On a cluster a MOVED (a resharding
 * since the slot map was read) or ASK (a slot migrating) is followed once, as redis-cli -c does.
 */
export async function execOn(hop: Hop, args: readonly Buffer[], text: readonly string[], ctx: ExecContext, redirected?: 'MOVED' | 'ASK'): Promise<HopResult> {
  const open = (name: string) => () => ConsoleLink.open(hop.spec, ctx.db, ctx.protocol, name, ctx.reply);
  const where = { connectionId: ctx.connectionId, address: hop.address, protocol: ctx.protocol };
  let link = await ctx.links.link(ctx.owner, where, open(ctx.name));
  const own = ctx.blocking && !link.inMulti;
  if (own) link = await open(`${ctx.name}-block`)();
  try {
    const r = await link.exclusive(async () => {
      try {
        await link.speak(ctx.protocol, ctx.reply);
        const selectError = await link.select(ctx.db, ctx.reply);
        if (selectError !== undefined) throw new AppError('REDIS', `${hop.address} refused SELECT ${ctx.db}: ${selectError}`, 'db');
        // ASKING lets the next command (only) reach a slot being imported: sent together, under one hold of the link.
        if (redirected === 'ASK') await link.send([Buffer.from('ASKING')], ctx.reply, ctx.signal);
        const started = performance.now();
        const got = await link.send(args, ctx.reply, ctx.signal);
        const ms = performance.now() - started;
        link.noteEffects(text, got);
        return { got, ms };
      } catch (err) {
        link.destroy();
        throw err;
      }
    });
    const redirect = ctx.followRedirects && redirected === undefined ? REDIRECT.exec(errorText(r.got) ?? '') : null;
    if (redirect !== null) {
      ctx.onRedirect();
      const address = redirect[2] as string;
      return await execOn({ address, role: 'master', spec: specAtAddress(ctx.profileSpec, address) }, args, text, ctx, redirect[1] as 'MOVED' | 'ASK');
    }
    const node = {
      address: hop.address,
      role: hop.role,
      ms: Math.round(r.ms * 1000) / 1000,
      reply: r.got.reply,
      ...(r.got.cut === undefined ? {} : { cut: r.got.cut }),
    };
    return { node, db: link.db, protocol: link.protocol };
  } finally {
    if (own) void link.close();
  }
}

/**
 * With several nodes asked ("every master"), one that cannot answer (down, unreachable, timed
 * out) is an error reply beside the others' replies rather than the whole run's failure: an
 * ops engineer checking every master wants the live ones' answers most when one is down.
 * A cancel or the run's timeout still ends the run.
 */
export function unanswered(hop: Hop, err: unknown, ctx: ExecContext): HopResult {
  if (ctx.signal.aborted) throw err;
  const why = err instanceof AppError ? err.message : String(err);
  return { node: { address: hop.address, role: hop.role, ms: 0, reply: { t: 'error', v: `Not answered: ${why}` } }, db: ctx.db, protocol: ctx.protocol };
}
