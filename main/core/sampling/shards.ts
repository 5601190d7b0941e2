import { AppError } from '../../../app/errors';
import { toAppError } from '../pool/redisErrors';
import type { RawTarget } from '../resp/rawTarget';
import { ReplyError } from '../resp/replyReader';
import { RespPipe } from '../resp/respPipe';

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
  /** Whether modules are loaded, or may be (INFO refused): a module's value says "raw" like a string. */
  modules: boolean;
}

/**
 * Open every target's pipe and read its DBSIZE, all at once. If any fails,
 * the ones that opened are closed and the first failure is thrown, naming its
 * server.
 */
export async function openShards(targets: readonly SamplingTarget[]): Promise<Shard[]> {
  const opened = await Promise.allSettled(targets.map(openShard));
  const shards = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = opened.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed === undefined) return shards;
  shards.forEach((s) => s.pipe.destroy());
  throw failed.reason;
}

async function openShard(target: SamplingTarget): Promise<Shard> {
  let pipe: RespPipe | null = null;
  try {
    pipe = new RespPipe(await target.connect(), target.errorContext);
    const [dbsize, modules] = await Promise.all([dbsizeOf(pipe), modulesOn(pipe)]);
    return { target, pipe, dbsize, modules };
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

/** INFO modules lists a `module:name=…` line per loaded module; an ACL that refuses INFO leaves it open. */
async function modulesOn(pipe: RespPipe): Promise<boolean> {
  const [info] = await pipe.send(Buffer.from('*2\r\n$4\r\nINFO\r\n$7\r\nmodules\r\n'), 1);
  return !Buffer.isBuffer(info) || /^module:/m.test(info.toString('latin1'));
}
