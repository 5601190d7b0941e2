import type { Redis } from 'ioredis';
import { hasSubcommand, takesKey } from '../../../app/redis/commands';
import { escapeBytes } from '../text/escapeBytes';
import type { SlowlogRecord } from './types';

export interface LatencyRecord {
  event: string;
  at: number;
  latestMs: number;
  maxMs: number;
}

function num(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(Buffer.isBuffer(v) ? v.toString('latin1') : v);
  return Number.isFinite(n) ? n : 0;
}

function text(v: unknown): string {
  if (Buffer.isBuffer(v)) return escapeBytes(v, 0, v.length).text;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}

/** One entry of SLOWLOG GET or COMMANDLOG GET, its third value (µs or bytes, by the log) as `value`. */
export interface LogEntry {
  id: number;
  at: number;
  value: number;
  args: string[];
  client: string;
  clientName: string;
}

/**
 * SLOWLOG GET's and Valkey 8.1's COMMANDLOG GET's reply, read as Buffers so binary arguments
 * survive to be escaped (the server already cuts them: 32 args, 128 bytes each): per entry
 * [id, unix time, value, [args], client ip:port, client name], the last two since Redis 4.0.
 * The value is the duration in µs for SLOWLOG and COMMANDLOG slow, bytes for large-request and
 * large-reply.
 */
export function logEntries(reply: unknown): LogEntry[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((entry: unknown): LogEntry[] => {
    if (!Array.isArray(entry)) return [];
    const [id, at, value, args, client, name] = entry as unknown[];
    return [
      {
        id: num(id),
        at: num(at) * 1000,
        value: num(value),
        args: Array.isArray(args) ? args.map(text) : [],
        client: text(client),
        clientName: text(name),
      },
    ];
  });
}

export async function readSlowlog(redis: Redis, count: number): Promise<SlowlogRecord[]> {
  const reply: unknown = await redis.callBuffer('SLOWLOG', 'GET', String(count));
  return logEntries(reply).map(({ value, ...e }) => ({ ...e, durationUs: value }));
}

/** LATENCY LATEST: [event, unix time of the latest spike, latest ms, all-time max ms] per event. */
export async function readLatency(redis: Redis): Promise<LatencyRecord[]> {
  const reply: unknown = await redis.call('LATENCY', 'LATEST');
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((row: unknown): LatencyRecord[] => {
    if (!Array.isArray(row)) return [];
    const [event, at, latest, max] = row as unknown[];
    return [{ event: text(event), at: num(at) * 1000, latestMs: num(latest), maxMs: num(max) }];
  });
}

/** Redis keeps at most 32 arguments and makes the last one "... (N more arguments)", N counting itself. */
const MORE_ARGS = /^\.\.\. \((\d+) more arguments\)$/;

/**
 * A SLOWLOG entry without the values: the command, then its key or subcommand,
 * and how many arguments were withheld. What follows a key is a value (SET's
 * value, a hash's fields, a script's arguments), and a keyless command's
 * arguments can be secrets (AUTH, CONFIG SET requirepass): analysts see
 * neither, as they cannot run MONITOR.
 */
export function withoutValues<E extends { args: string[] }>(e: E): E & { argsHidden: number } {
  const command = e.args[0];
  if (command === undefined) return { ...e, argsHidden: 0 };
  const name = command.toUpperCase();
  const shown = hasSubcommand(name) || takesKey(name) ? e.args.slice(0, 2) : [command];
  const more = MORE_ARGS.exec(e.args.at(-1) ?? '');
  const total = more === null ? e.args.length : e.args.length - 1 + Number(more[1]);
  return { ...e, args: shown, argsHidden: Math.max(0, total - shown.length) };
}
