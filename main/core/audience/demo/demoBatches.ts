import type { LayoutKind } from '../../../../app/schemas/audience';
import { RespBuilder } from '../../resp/respBuilder';
import type { CommandBatch } from '../../resp/types';
import type { LayoutKeys } from '../layoutKeys';
import { demoAttributeValues, demoDays, demoUsers, type DemoShape, type DemoUser } from './tvAudience';

export interface DemoPlan extends DemoShape {
  layouts: readonly LayoutKind[];
  keys: LayoutKeys;
  /** DEL each set and zset before writing it (SADD/ZADD would merge into an older dataset). */
  overwrite: boolean;
}

/** Ids per SADD: variadic commands amortize the per-command cost without huge replies to wait for. */
const SADD_IDS = 1_000;
/** RESP bytes per batch handed to the pipe. */
const BATCH_BYTES = 512 * 1024;

/** Totals the batches report as they go. */
export interface DemoCounts {
  keys: number;
  commands: number;
  bytes: number;
}

/**
 * The dataset as RESP batches for the bulk pipe, streamed user by user: bitmaps are built
 * in memory (N/8 bytes each, ~150 of them) and SET whole at the end, since a SETBIT per
 * user-day would be tens of millions of commands; sets fill through SADDs of 1,000 ids;
 * each user's days become one ZADD.
 */
export async function* demoBatches(plan: DemoPlan, counts: DemoCounts): AsyncGenerator<CommandBatch> {
  const b = new RespBuilder();
  let n = 0;
  let users = 0;
  const keys = plan.keys;
  const days = demoDays(plan);
  const values = demoAttributeValues();
  const want = (k: LayoutKind) => plan.layouts.includes(k);
  const attrIndex = new Map(values.map((v, i) => [`${v.name}=${v.value}`, i]));

  const bytes = Math.ceil((plan.users + 1) / 8);
  const bitmaps = want('bitmap') ? { attrs: values.map(() => Buffer.alloc(bytes)), days: days.map(() => Buffer.alloc(bytes)), all: Buffer.alloc(bytes) } : null;
  const setKeys = want('set') ? { attrs: values.map((v) => keys.attr('set', v)), days: days.map((d) => keys.active('set', d)), all: keys.all('set') } : null;
  const pending = new Map<string, number[]>();
  const dayArg = days.map((d) => Buffer.from(`$1\r\n1\r\n$${d.length}\r\n${d}\r\n`));

  const cmd = (argc: number) => {
    n++;
    return b.command(argc);
  };
  const flush = (key: string, ids: number[]) => {
    if (ids.length === 0) return;
    cmd(ids.length + 2)
      .arg('SADD')
      .arg(key);
    for (const id of ids) b.argNumber(id);
    ids.length = 0;
  };
  const addId = (key: string, id: number) => {
    let ids = pending.get(key);
    if (ids === undefined) pending.set(key, (ids = []));
    ids.push(id);
    if (ids.length >= SADD_IDS) flush(key, ids);
  };
  const take = (): CommandBatch => {
    const resp = b.take();
    counts.commands += n;
    counts.bytes += resp.length;
    const batch: CommandBatch = {
      resp,
      count: n,
      lines: Uint32Array.from({ length: n }, (_, i) => counts.commands - n + i + 1),
      records: users,
      bytesRead: 0,
      release: () => b.recycle(resp),
    };
    n = 0;
    return batch;
  };

  if (setKeys !== null) {
    if (plan.overwrite) for (const k of [...setKeys.attrs, ...setKeys.days, setKeys.all]) cmd(2).arg('DEL').arg(k);
  }
  const user = (u: DemoUser) => {
    const held = [
      ...Object.entries(u.attrs).map(([name, v]) => attrIndex.get(`${name}=${v}`)),
      ...u.interests.map((i) => attrIndex.get(`interest=${i}`)),
    ] as number[];
    if (bitmaps !== null) {
      for (const i of held) setBit(bitmaps.attrs[i] as Buffer, u.id);
      for (const d of u.activeDays) setBit(bitmaps.days[d] as Buffer, u.id);
      setBit(bitmaps.all, u.id);
    }
    if (setKeys !== null) {
      for (const i of held) addId(setKeys.attrs[i] as string, u.id);
      for (const d of u.activeDays) addId(setKeys.days[d] as string, u.id);
      addId(setKeys.all, u.id);
    }
    if (!want('zset')) return;
    const key = keys.userDays(u.id);
    // Also for a user who watched nothing: an older dataset may have given them days.
    if (plan.overwrite) cmd(2).arg('DEL').arg(key);
    if (u.activeDays.length > 0) {
      cmd(2 + 2 * u.activeDays.length)
        .arg('ZADD')
        .arg(key);
      for (const d of u.activeDays) b.raw(dayArg[d] as Buffer);
      counts.keys++;
    }
  };

  for (const u of demoUsers(plan)) {
    user(u);
    users = u.id;
    if (b.size >= BATCH_BYTES) yield take();
  }
  counts.keys += pending.size;
  for (const [key, ids] of pending) {
    flush(key, ids);
    if (b.size >= BATCH_BYTES) yield take();
  }
  if (bitmaps !== null) {
    const all: [string, Buffer][] = [
      ...values.map((v, i) => [keys.attr('bitmap', v), bitmaps.attrs[i] as Buffer] as [string, Buffer]),
      ...days.map((d, i) => [keys.active('bitmap', d), bitmaps.days[i] as Buffer] as [string, Buffer]),
      [keys.all('bitmap'), bitmaps.all],
    ];
    for (const [key, bits] of all) {
      cmd(3).arg('SET').arg(key).argBytes(bits, 0, bits.length);
      counts.keys++;
      if (b.size >= BATCH_BYTES) yield take();
    }
  }
  if (n > 0) yield take();
}

/** Redis numbers bits from the most significant bit of the first byte (SETBIT/GETBIT order). */
function setBit(bits: Buffer, id: number): void {
  const at = id >> 3;
  bits[at] = (bits[at] as number) | (0x80 >> (id & 7));
}
