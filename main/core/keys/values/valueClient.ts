import type { Cluster, Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import type { ProfileSpec } from '../../../../app/schemas/connections';
import { contextOf, toAppError } from '../../pool/redisErrors';
import { hasFieldTtls } from '../../pool/commandSupport';
import { keyConnection } from '../keyConnection';
import type { PoolApi } from '../../pool/types';

type Arg = string | Buffer | number;

/**
 * What the value readers need of a connection: one command at a time, replies as Buffers
 * (so binary names, fields and values stay exact). Commands issued together without
 * awaiting go out back to back on one socket: a pipelined round trip.
 */
export interface ValueClient {
  /** The command's reply, bulk strings as Buffers; a Redis error becomes an AppError. */
  send(command: string, ...args: Arg[]): Promise<unknown>;
  /** The server has hash-field expiration (../../pool/commandSupport.ts: by COMMAND INFO). */
  fieldTtls(): Promise<boolean>;
}

/** A pooled ioredis client (standalone, sentinel master) or Cluster (routes each single-key command by slot). */
export function clientOf(redis: Redis | Cluster): ValueClient {
  const ctx = redis.isCluster ? { label: 'the cluster' } : contextOf(redis as Redis);
  return {
    send: (command, ...args) =>
      redis.callBuffer(command, ...args).catch((e: unknown) => {
        throw toAppError(e, ctx);
      }),
    fieldTtls: () => hasFieldTtls(redis),
  };
}

/** The connection a profile's values are read on (../keyConnection.ts), as a ValueClient. */
export async function valueClient(pool: Pick<PoolApi, 'shared' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): Promise<ValueClient> {
  return clientOf(await keyConnection(pool, connectionId, spec, db));
}

/** The reply as a Buffer (a bulk string), or null (nil). */
export function asBuf(reply: unknown): Buffer | null {
  if (reply === null || reply === undefined) return null;
  if (Buffer.isBuffer(reply)) return reply;
  if (typeof reply === 'number' || typeof reply === 'string') return Buffer.from(String(reply));
  throw new AppError('INTERNAL', `Unexpected reply shape: ${typeof reply}`);
}

/** The reply as text ("" for nil). */
export function asText(reply: unknown): string {
  return asBuf(reply)?.toString('utf8') ?? '';
}

/** An integer reply (or a bulk string holding one), else null. */
export function asNum(reply: unknown): number | null {
  if (typeof reply === 'number') return reply;
  const b = asBuf(reply);
  if (b === null) return null;
  const n = Number(b.toString('latin1'));
  return Number.isFinite(n) ? n : null;
}

/** An array reply (nil: empty). */
export function asArray(reply: unknown): unknown[] {
  if (reply === null || reply === undefined) return [];
  if (Array.isArray(reply)) return reply as unknown[];
  throw new AppError('INTERNAL', 'Unexpected reply shape: expected an array');
}

/** A flat [name, value, name, value…] reply (XINFO) as a map from the names. */
export function asFields(reply: unknown): Map<string, unknown> {
  const a = asArray(reply);
  const out = new Map<string, unknown>();
  for (let i = 0; i + 1 < a.length; i += 2) out.set(asText(a[i]), a[i + 1]);
  return out;
}

/** The reply, or null when Redis refused it (an ACL, an eviction policy, a missing key): optional metadata. */
export function orNull<T>(p: Promise<T>): Promise<T | null> {
  return p.catch(() => null);
}
