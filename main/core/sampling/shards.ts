import { AppError } from '../../../app/errors';
import { commandInfoHas, FIELD_TTLS_COMMAND } from '../pool/commandSupport';
import { toAppError } from '../pool/redisErrors';
import { encodeCommand } from '../resp/encodeCommand';
import type { RawTarget } from '../resp/rawTarget';
import { ReplyError } from '../resp/replyReader';
import { RespPipe } from '../resp/respPipe';
import { loadProbeScript } from './probeScript';
import { serverFigures, type ServerFigures } from './serverFigures';

/** One server a run reads keys from: the profile's server, or one master of a cluster. */
export interface SamplingTarget extends RawTarget {
  /** "host:port"; names the master in a cluster report. */
  address: string;
}

/** A target with its pipe open and its DBSIZE read. */
export interface Shard {
  target: SamplingTarget;
  pipe: RespPipe;
  dbsize: number;
  /** What its INFO says: modules, the dataset's memory, hash-field expiry counts. */
  server: ServerFigures;
  /** Whether it has hash-field expiry (by COMMAND INFO: Redis 7.4+, Valkey 9). */
  fieldExpiry: boolean;
  /** Whether keys are probed by script (PROBE_SCRIPT loaded, EVALSHA there); else by plain commands. */
  script: boolean;
}

/**
 * Open every target's pipe and read its DBSIZE, all at once. If any fails,
 * the ones that opened are closed and the first failure is thrown, naming its
 * server.
 */
export async function openShards(targets: readonly SamplingTarget[], db: number, o: { scripts: boolean }): Promise<Shard[]> {
  const opened = await Promise.allSettled(targets.map((t) => openShard(t, db, o.scripts)));
  const shards = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = opened.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed === undefined) return shards;
  shards.forEach((s) => s.pipe.destroy());
  throw failed.reason;
}

async function openShard(target: SamplingTarget, db: number, scripts: boolean): Promise<Shard> {
  let pipe: RespPipe | null = null;
  try {
    pipe = new RespPipe(await target.connect(), target.errorContext);
    const [dbsize, server, fieldExpiry, script] = await Promise.all([
      dbsizeOf(pipe),
      serverOf(pipe, db),
      knowsFieldTtls(pipe),
      scripts ? loadProbeScript(pipe) : false,
    ]);
    return { target, pipe, dbsize, server, fieldExpiry, script };
  } catch (e) {
    pipe?.destroy();
    throw toAppError(e, target.errorContext);
  }
}

async function dbsizeOf(pipe: RespPipe): Promise<number> {
  const [n] = await pipe.send(Buffer.from('*1\r\n$6\r\nDBSIZE\r\n'), 1);
  if (n instanceof ReplyError) throw pipe.errorOf(n);
  if (typeof n !== 'number') throw new AppError('INTERNAL', 'DBSIZE answered with something other than a number');
  return n;
}

const INFO_SECTIONS = ['modules', 'memory', 'keyspace', 'stats'] as const;

/** INFO section by section (a list of sections in one INFO is 7.0+); a refused one reads as null. */
async function serverOf(pipe: RespPipe, db: number): Promise<ServerFigures> {
  const cmd = (s: string) => `*2\r\n$4\r\nINFO\r\n$${s.length}\r\n${s}\r\n`;
  const replies = await pipe.send(Buffer.from(INFO_SECTIONS.map(cmd).join('')), INFO_SECTIONS.length);
  const [modules, memory, keyspace, stats] = replies.map((r) => (Buffer.isBuffer(r) ? r.toString('latin1') : null));
  return serverFigures(db, modules ?? null, memory ?? null, keyspace ?? null, stats ?? null);
}

/**
 * Hash-field expiry as ../pool/commandSupport.ts decides it: by COMMAND INFO, never guessed
 * from a version (a fork or a managed service may differ). Unknown (nil), or COMMAND refused:
 * taken as absent, and the TTL buckets then count a hash by its key TTL alone.
 */
async function knowsFieldTtls(pipe: RespPipe): Promise<boolean> {
  const [reply] = await pipe.send(encodeCommand(['COMMAND', 'INFO', FIELD_TTLS_COMMAND]), 1);
  return commandInfoHas(reply);
}
