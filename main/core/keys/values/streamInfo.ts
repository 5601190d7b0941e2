import { AppError } from '../../../../app/errors';
import type { StreamInfo } from '../../../../app/schemas/keys';
import { keyName } from '../../text/keyText';
import { valueBytes } from '../keyRef';
import { keyTypeOf } from './keyType';
import { asArray, asBuf, asFields, asNum, asText, type ValueClient } from './valueClient';

type Info = StreamInfo;
type Group = Info['groups'][number];

/** Groups shown, and consumers shown per group: XINFO GROUPS/CONSUMERS have no COUNT, so what they return is cut here. */
export const MAX_GROUPS = 100;
export const MAX_CONSUMERS = 100;
/** The oldest pending entries shown per group (XPENDING … - + 20). */
export const PENDING_SHOWN = 20;

/**
 * A stream's XINFO STREAM (not FULL: that one lists every entry), its groups, each group's
 * consumers and its oldest pending entries: two round trips (the stream and its groups, then
 * every group's consumers and pending entries together).
 */
export async function streamInfo(client: ValueClient, key: Buffer): Promise<Info> {
  const [type, info, groupsReply] = await Promise.allSettled([
    client.send('TYPE', key),
    client.send('XINFO', 'STREAM', key),
    client.send('XINFO', 'GROUPS', key),
  ]);
  if (type.status === 'rejected') throw type.reason;
  const real = keyTypeOf(asText(type.value));
  if (real.type === null) throw new AppError('NOT_FOUND', `Key ${keyName(key).text} does not exist (deleted or expired?)`, 'key');
  if (real.type !== 'stream') throw new AppError('VALIDATION', `Key ${keyName(key).text} is a ${real.moduleType ?? real.type}, not a stream`, 'key');
  if (info.status === 'rejected') throw info.reason;
  if (groupsReply.status === 'rejected') throw groupsReply.reason;
  const s = asFields(info.value);
  const groups = asArray(groupsReply.value).slice(0, MAX_GROUPS).map(asFields);
  const details = await Promise.all(
    groups.map((g) => {
      const name = asBuf(g.get('name')) ?? Buffer.alloc(0);
      return Promise.all([client.send('XINFO', 'CONSUMERS', key, name), client.send('XPENDING', key, name, '-', '+', PENDING_SHOWN)]);
    }),
  );
  return {
    length: asNum(s.get('length')) ?? 0,
    firstId: entryId(s.get('first-entry')),
    lastId: entryId(s.get('last-entry')),
    lastGeneratedId: asText(s.get('last-generated-id')),
    groups: groups.map((g, i) => group(g, details[i] ?? [[], []])),
  };
}

/** The id of XINFO STREAM's first-entry / last-entry ([id, fields], nil when empty). */
function entryId(entry: unknown): string | null {
  const [id] = asArray(entry);
  return id === undefined ? null : asText(id);
}

function group(g: Map<string, unknown>, [consumers, pending]: unknown[]): Group {
  return {
    name: valueBytes(asBuf(g.get('name')) ?? Buffer.alloc(0)),
    consumers: asNum(g.get('consumers')) ?? 0,
    pending: asNum(g.get('pending')) ?? 0,
    lastDeliveredId: asText(g.get('last-delivered-id')),
    // Redis 7 reports lag (nil when it can't tell); older servers don't have it.
    lag: asNum(g.get('lag')),
    consumerList: asArray(consumers)
      .slice(0, MAX_CONSUMERS)
      .map(asFields)
      .map((c) => ({ name: valueBytes(asBuf(c.get('name')) ?? Buffer.alloc(0)), pending: asNum(c.get('pending')) ?? 0, idleMs: asNum(c.get('idle')) ?? 0 })),
    pendingEntries: asArray(pending).map((p) => {
      const [id, consumer, idle, deliveries] = asArray(p);
      return { id: asText(id), consumer: valueBytes(asBuf(consumer) ?? Buffer.alloc(0)), idleMs: asNum(idle) ?? 0, deliveries: asNum(deliveries) ?? 0 };
    }),
  };
}
