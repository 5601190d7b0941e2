import { RespBuilder } from '../resp/respBuilder';
import { ReplyError, type Reply } from '../resp/replyReader';
import type { RespPipe } from '../resp/respPipe';
import { anyFieldTtl, EXPIRING_ENCODING, FIELDS_CHECKED } from '../pool/fieldTtls';

/**
 * Whether hashes without a key TTL have fields that expire (hash-field expiry: Redis
 * 7.4+, Valkey 9), asked only of a server whose COMMAND INFO has it (decided in
 * ../pool/commandSupport.ts). Redis gives such a small hash its own encoding,
 * `listpackex`: that says yes with no command.
 * Any other hash gets HRANDFIELD key n (n distinct fields, n = min(HLEN, 64)) and
 * HPTTL key FIELDS n …: a field with a TTL says yes. A hash of up to 64 fields is thus
 * checked whole; a bigger one by 64 fields drawn at random, so one where only a few
 * fields expire can read as having none. Field names are read, never values.
 */
export class FieldExpiryCheck {
  private readonly builder = new RespBuilder(64 * 1024);

  constructor(private readonly pipe: RespPipe) {}

  /** Per hash, whether fields of it expire; `lengths` are their HLENs. */
  async check(keys: readonly Buffer[], encodings: readonly string[], lengths: readonly number[]): Promise<boolean[]> {
    const out = encodings.map((e) => e === EXPIRING_ENCODING);
    const ask = out.flatMap((yes, i) => (yes || (lengths[i] ?? 0) === 0 ? [] : [i]));
    if (ask.length === 0) return out;
    for (const i of ask) {
      const k = keys[i] as Buffer;
      this.builder
        .command(3)
        .arg('HRANDFIELD')
        .argBytes(k, 0, k.length)
        .argNumber(Math.min(lengths[i] as number, FIELDS_CHECKED));
    }
    const fields = (await this.round(ask.length)).map((r) => (Array.isArray(r) ? r.filter((f): f is Buffer => Buffer.isBuffer(f)) : []));
    let asked = 0;
    ask.forEach((i, j) => {
      const names = fields[j] as Buffer[];
      if (names.length === 0) return; // emptied or deleted since: nothing left to expire
      const k = keys[i] as Buffer;
      const b = this.builder
        .command(4 + names.length)
        .arg('HPTTL')
        .argBytes(k, 0, k.length)
        .arg('FIELDS')
        .argNumber(names.length);
      for (const f of names) b.argBytes(f, 0, f.length);
      asked++;
    });
    if (asked === 0) return out;
    const ttls = await this.round(asked);
    let next = 0;
    ask.forEach((i, j) => {
      if ((fields[j] as Buffer[]).length === 0) return;
      const r = ttls[next++];
      // -1: no TTL, -2: gone; a TTL is 0 or more. A key gone since answers nil.
      out[i] = anyFieldTtl(r);
    });
    return out;
  }

  private async round(count: number): Promise<Reply[]> {
    const payload = this.builder.take();
    const replies = await this.pipe.send(payload, count);
    this.builder.recycle(payload);
    for (const r of replies) if (r instanceof ReplyError && !r.message.startsWith('WRONGTYPE')) throw this.pipe.errorOf(r);
    return replies;
  }
}

/**
 * Which of `found` keys (by index) are hashes without a key TTL (PTTL -1) whose fields expire;
 * none where the server has no field expiry (`check` null). Both probers ask it after their rounds.
 */
export async function fieldsExpireOf(
  check: FieldExpiryCheck | null,
  found: {
    key: (j: number) => Buffer;
    isHash: (j: number) => boolean;
    pttl: (j: number) => number;
    encoding: (j: number) => string;
    length: (j: number) => number;
  },
  count: number,
): Promise<Set<number>> {
  const out = new Set<number>();
  if (check === null) return out;
  const js: number[] = [];
  for (let j = 0; j < count; j++) if (found.isHash(j) && found.pttl(j) === -1) js.push(j);
  if (js.length === 0) return out;
  const yes = await check.check(js.map(found.key), js.map(found.encoding), js.map(found.length));
  js.forEach((j, n) => {
    if (yes[n] === true) out.add(j);
  });
  return out;
}
