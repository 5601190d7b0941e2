import { AppError } from '../../../app/errors';
import { RespBuilder } from '../bulk/resp/respBuilder';
import { KEY_TYPES, typeIndex } from './aggregate';
import type { KeySink } from './masterTally';
import { ReplyError, type Reply } from './replyReader';
import type { RespPipe } from './respPipe';

/** Pre-encoded command heads; the key (and for MEMORY USAGE its SAMPLES tail) follows. */
const head = (...words: string[]) => Buffer.from(`*${words.length + 1}\r\n${words.map((w) => `$${w.length}\r\n${w}\r\n`).join('')}`);
const TYPE = head('TYPE');
const ENCODING = head('OBJECT', 'ENCODING');
const PTTL = head('PTTL');
/** MEMORY USAGE key SAMPLES n: five arguments, the last two after the key. */
const MEMORY_HEAD = Buffer.from('*5\r\n$6\r\nMEMORY\r\n$5\r\nUSAGE\r\n');
/** The O(1) element count of each type, in KEY_TYPES order; `other` (module types) has none. */
const LENGTH = ['STRLEN', 'HLEN', 'LLEN', 'SCARD', 'ZCARD', 'XLEN', null].map((c) => (c === null ? null : head(c)));
const OTHER = KEY_TYPES.indexOf('other');

/** Replies per key in the first round: TYPE, OBJECT ENCODING, MEMORY USAGE, PTTL. */
const FIRST_ROUND = 4;

/**
 * Probes a group of keys in two pipelined round trips, never reading a value:
 * TYPE, OBJECT ENCODING, MEMORY USAGE … SAMPLES n and PTTL, then the length
 * command TYPE calls for (STRLEN, HLEN, LLEN, SCARD, ZCARD, XLEN: all O(1)).
 * MEMORY USAGE with SAMPLES bounds the cost of a huge aggregate; SAMPLES 0
 * (exact) walks every element and can take milliseconds on a million-member key.
 */
export class Prober {
  private readonly builder = new RespBuilder(1 << 20);
  private readonly samplesTail: Buffer;
  /** Keys whose type changed between the two rounds (WRONGTYPE on the length command). */
  private changedType = 0;

  constructor(
    private readonly pipe: RespPipe,
    private readonly into: KeySink,
    memorySamples: number,
  ) {
    const n = String(memorySamples);
    this.samplesTail = Buffer.from(`$7\r\nSAMPLES\r\n$${n.length}\r\n${n}\r\n`);
  }

  async probe(keys: Buffer[]): Promise<void> {
    const b = this.builder;
    for (const k of keys) {
      b.raw(TYPE).argBytes(k, 0, k.length);
      b.raw(ENCODING).argBytes(k, 0, k.length);
      b.raw(MEMORY_HEAD).argBytes(k, 0, k.length).raw(this.samplesTail);
      b.raw(PTTL).argBytes(k, 0, k.length);
    }
    const first = b.take();
    const r1 = await this.pipe.send(first, keys.length * FIRST_ROUND);
    b.recycle(first);

    const found: number[] = [];
    const types: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const o = i * FIRST_ROUND;
      const type = this.check(r1[o]);
      const encoding = this.check(r1[o + 1]);
      const memory = this.check(r1[o + 2]);
      const pttl = this.check(r1[o + 3]);
      // Gone since it was found (expired, deleted): TYPE says none, the others null or -2.
      if (type === 'none' || encoding === null || memory === null || pttl === -2) {
        this.into.addMissing();
        continue;
      }
      found.push(i);
      types.push(typeIndex(String(type)));
    }

    let lengths = 0;
    for (let j = 0; j < found.length; j++) {
      const cmd = LENGTH[types[j] as number];
      if (cmd === null || cmd === undefined) continue;
      const k = keys[found[j] as number] as Buffer;
      b.raw(cmd).argBytes(k, 0, k.length);
      lengths++;
    }
    const second = b.take();
    const r2 = await this.pipe.send(second, lengths);
    b.recycle(second);

    let next = 0;
    for (let j = 0; j < found.length; j++) {
      const i = found[j] as number;
      const t = types[j] as number;
      const o = i * FIRST_ROUND;
      let length = 0;
      if (LENGTH[t] !== null) {
        const r = r2[next++];
        if (r instanceof ReplyError && r.message.startsWith('WRONGTYPE')) this.changedType++;
        else length = Number(this.check(r));
      }
      // A module type's encoding says little ("raw"); its type name says which module.
      const encoding = t === OTHER ? String(r1[o]) : (r1[o + 1] as Buffer).toString('latin1');
      this.into.add(keys[i] as Buffer, t, encoding, Number(r1[o + 2]), Number(r1[o + 3]), length);
    }
  }

  warnings(): string[] {
    return this.changedType > 0
      ? [`${this.changedType} keys changed type while being probed (deleted and written again); their length is counted as 0`]
      : [];
  }

  /** A reply, or the run's end if it is an error: NOPERM on MEMORY, a server that refuses OBJECT… */
  private check(r: Reply | undefined): Reply {
    if (r instanceof ReplyError) throw this.pipe.errorOf(r);
    if (r === undefined) throw new AppError('INTERNAL', 'A reply is missing from the sampling pipe.');
    return r;
  }
}
