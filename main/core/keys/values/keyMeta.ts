import type { KeyMeta } from '../../../../app/schemas/keys';
import { keyRef } from '../keyRef';
import { keyTypeOf, LENGTH_COMMAND } from './keyType';
import { DIGEST_SCRIPT } from './valueDigest';
import { asBuf, asNum, asText, orNull, type ValueClient } from './valueClient';

/**
 * DUMP a module value only up to this MEMORY USAGE: DUMP serialises the whole value on the
 * server and sends it here, so a 2 GB module value would be one unbounded read. Past it (or
 * when MEMORY USAGE is refused, size unknown) dumpBytes stays null and memory speaks for it.
 */
export const MODULE_DUMP_MAX_BYTES = 1024 * 1024;

/**
 * One key's metadata without a scan: TYPE, PTTL, OBJECT ENCODING, MEMORY USAGE, OBJECT FREQ
 * and IDLETIME, CONFIG GET maxmemory-policy in one pipelined round trip, then the type's O(1)
 * length (and a small module value's DUMP) in a second. Both FREQ and IDLETIME are asked:
 * Redis answers exactly one of them (FREQ under an LFU policy, IDLETIME otherwise), so the
 * policy need not be known first, and a profile whose ACL refuses CONFIG still gets one.
 * Whatever an ACL refuses is null, not a failure; only TYPE must answer.
 */
export async function keyMeta(client: ValueClient, key: Buffer): Promise<KeyMeta> {
  const [type, pttl, encoding, memory, freq, idle, policy] = await Promise.all([
    client.send('TYPE', key),
    orNull(client.send('PTTL', key)),
    orNull(client.send('OBJECT', 'ENCODING', key)),
    orNull(client.send('MEMORY', 'USAGE', key, 'SAMPLES', 5)),
    orNull(client.send('OBJECT', 'FREQ', key)),
    orNull(client.send('OBJECT', 'IDLETIME', key)),
    orNull(client.send('CONFIG', 'GET', 'maxmemory-policy')),
  ]);
  const evictionPolicy = Array.isArray(policy) && policy.length >= 2 ? asText(policy[1]) : null;
  const { type: kind, moduleType } = keyTypeOf(asText(type));
  const base: KeyMeta = {
    key: keyRef(key),
    exists: kind !== null,
    type: kind,
    moduleType,
    encoding: null,
    length: null,
    memory: null,
    ttlMs: null,
    freq: null,
    idleSeconds: null,
    evictionPolicy,
    dumpBytes: null,
    digest: null,
    fieldTtls: false,
  };
  if (kind === null) return base;
  const mem = asNum(memory);
  const [length, dump, digest, fieldTtls] = await Promise.all([
    kind === 'other' ? null : orNull(client.send(LENGTH_COMMAND[kind], key)),
    kind === 'other' && mem !== null && mem <= MODULE_DUMP_MAX_BYTES ? orNull(client.send('DUMP', key)) : null,
    // After the length in the same round trip: an edit compares both, so either moving is a conflict.
    kind === 'other' || kind === 'stream' ? null : orNull(client.send('EVAL', DIGEST_SCRIPT, 1, key)),
    client.fieldTtls(),
  ]);
  const sha = asText(digest);
  const ttl = asNum(pttl);
  return {
    ...base,
    encoding: encoding === null ? null : asText(encoding),
    length: asNum(length),
    memory: mem,
    // -2: gone between TYPE and PTTL; say "unknown" rather than invent a TTL.
    ttlMs: ttl === null || ttl === -2 ? null : ttl,
    freq: asNum(freq),
    idleSeconds: asNum(idle),
    dumpBytes: asBuf(dump)?.length ?? null,
    digest: sha === '' ? null : sha,
    fieldTtls,
  };
}
