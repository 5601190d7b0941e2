import type { Redis } from 'ioredis';
import type { CommandlogList, Commandlogs } from '../../../app/schemas/metrics';
import { hasCommand } from '../pool/commandSupport';
import { logEntries, withoutValues } from './slowlog';

/**
 * Valkey 8.1's COMMANDLOG logs beyond the slow one (which SLOWLOG already shows): commands whose
 * request, or whose reply, was bigger than commandlog-request-larger-than /
 * commandlog-reply-larger-than bytes. Keyed by the page's name, valued by COMMANDLOG's type.
 */
const TYPES = { largeRequest: 'large-request', largeReply: 'large-reply' } as const;

async function readOne(redis: Redis, type: string, count: number): Promise<CommandlogList> {
  const [reply, length] = await Promise.all([redis.callBuffer('COMMANDLOG', 'GET', String(count), type), redis.call('COMMANDLOG', 'LEN', type)]);
  const entries = logEntries(reply).map(({ value, ...e }) => ({ ...e, bytes: value }));
  return { length: typeof length === 'number' ? length : entries.length, entries };
}

/**
 * The large-request and large-reply logs of a node, newest first, or undefined where the server
 * has no COMMANDLOG (COMMAND INFO says so: Redis, Valkey before 8.1) or refuses it (an ACL, a
 * renamed command): the page then shows the slow log alone rather than an empty log it cannot read.
 */
export async function readCommandlogs(redis: Redis, count: number): Promise<Commandlogs | undefined> {
  if (!(await hasCommand(redis, 'COMMANDLOG'))) return undefined;
  try {
    const [largeRequest, largeReply] = await Promise.all([readOne(redis, TYPES.largeRequest, count), readOne(redis, TYPES.largeReply, count)]);
    return { largeRequest, largeReply };
  } catch (err) {
    if (err instanceof Error && /^(NOPERM|ERR unknown)/.test(err.message)) return undefined;
    throw err;
  }
}

/** The slow and command logs as an analyst sees them: each entry's command and key, without values (withoutValues). */
export function logsWithoutValues<R extends { slowlog: { args: string[] }[]; commandlog?: Commandlogs }>(read: R): R {
  const { commandlog } = read;
  const hide = (l: CommandlogList): CommandlogList => ({ ...l, entries: l.entries.map(withoutValues) });
  return {
    ...read,
    slowlog: read.slowlog.map(withoutValues),
    ...(commandlog === undefined ? {} : { commandlog: { largeRequest: hide(commandlog.largeRequest), largeReply: hide(commandlog.largeReply) } }),
  };
}
