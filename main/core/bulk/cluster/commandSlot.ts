import { keySlot } from '../../resp/slot';

/** Where a command's keys are, as COMMAND INFO's first/last/step (last < 0 counts from the end). */
interface KeyRange {
  first: number;
  last: number;
  step: number;
}
/** numkeys at `at`, then that many keys; `dest` is a key before numkeys (ZUNIONSTORE's destination). */
interface NumKeys {
  at: number;
  dest: boolean;
}
type KeySpec = KeyRange | NumKeys | 'none' | 'transaction';

const FIRST: KeyRange = { first: 1, last: 1, step: 1 };
const ALL: KeyRange = { first: 1, last: -1, step: 1 };

const SPECS = new Map<string, KeySpec>([
  ...['DEL', 'UNLINK', 'EXISTS', 'TOUCH', 'MGET', 'SINTERSTORE', 'SUNIONSTORE', 'SDIFFSTORE', 'SINTER', 'SUNION', 'SDIFF', 'PFMERGE', 'PFCOUNT'].map(
    (n): [string, KeySpec] => [n, ALL],
  ),
  ['MSET', { first: 1, last: -1, step: 2 }],
  ['MSETNX', { first: 1, last: -1, step: 2 }],
  ...['RENAME', 'RENAMENX', 'RPOPLPUSH', 'LMOVE', 'BLMOVE', 'SMOVE', 'COPY', 'GEOSEARCHSTORE', 'ZRANGESTORE'].map(
    (n): [string, KeySpec] => [n, { first: 1, last: 2, step: 1 }],
  ),
  ['BITOP', { first: 2, last: -1, step: 1 }],
  ...['ZUNIONSTORE', 'ZINTERSTORE', 'ZDIFFSTORE'].map((n): [string, KeySpec] => [n, { at: 2, dest: true }]),
  ...['ZUNION', 'ZINTER', 'ZDIFF', 'SINTERCARD', 'ZINTERCARD', 'LMPOP', 'ZMPOP'].map((n): [string, KeySpec] => [n, { at: 1, dest: false }]),
  ...['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO'].map((n): [string, KeySpec] => [n, { at: 2, dest: false }]),
  ...['PING', 'ECHO', 'SCRIPT', 'FUNCTION'].map((n): [string, KeySpec] => [n, 'none']),
  // A transaction runs on one node; its commands would be split across pipes.
  ...['MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH'].map((n): [string, KeySpec] => [n, 'transaction']),
]);

const MAX_NAME = 32;
/** The command has no key: any master may run it. */
export const NO_SLOT = -1;

/** A command the cluster cannot run as one: keys in different slots, or a transaction. */
export class SlotRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotRefusal';
  }
}

/**
 * Reads one RESP command (`*N` then N bulk strings, as the sources encode
 * them) at `pos` and finds its slot. Not a validator: sources already framed
 * the bytes. Commands not listed take their key at argument 1, as most Redis
 * commands do (COMMAND INFO's first key).
 */
export class CommandSlots {
  /** Byte offset just past the command last read. */
  end = 0;
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly lastName = Buffer.alloc(MAX_NAME);
  private lastLen = -1;
  private lastSpec: KeySpec = FIRST;
  private lastUpper = '';

  /** The slot of the command at buf[pos], or NO_SLOT; sets `end`. Throws SlotRefusal. */
  read(buf: Buffer, pos: number): number {
    let p = pos + 1; // '*'
    let argc = 0;
    while (buf[p] !== 0x0d) argc = argc * 10 + ((buf[p++] as number) - 48);
    p += 2;
    const starts = this.starts;
    const ends = this.ends;
    starts.length = argc;
    ends.length = argc;
    for (let i = 0; i < argc; i++) {
      p++; // '$'
      let len = 0;
      while (buf[p] !== 0x0d) len = len * 10 + ((buf[p++] as number) - 48);
      p += 2;
      starts[i] = p;
      ends[i] = p + len;
      p += len + 2;
    }
    this.end = p;
    if (argc === 0) return NO_SLOT;
    const spec = this.specOf(buf, starts[0] as number, ends[0] as number);
    if (spec === 'none') return NO_SLOT;
    if (spec === 'transaction') {
      throw new SlotRefusal(`${this.lastUpper} is refused in a cluster load: a transaction runs on one node, but the load spreads commands over every master`);
    }
    if (spec === FIRST) return argc > 1 ? keySlot(buf, starts[1] as number, ends[1] as number) : NO_SLOT;
    return this.multiKeySlot(buf, spec, argc);
  }

  private multiKeySlot(buf: Buffer, spec: KeyRange | NumKeys, argc: number): number {
    const keys: number[] = [];
    if ('step' in spec) {
      const last = spec.last < 0 ? argc + spec.last : Math.min(spec.last, argc - 1);
      for (let i = spec.first; i <= last; i += spec.step) keys.push(i);
    } else {
      if (spec.dest && argc > 1) keys.push(1);
      const n = Number(buf.toString('latin1', this.starts[spec.at], this.ends[spec.at]));
      for (let i = 0; Number.isInteger(n) && i < n && spec.at + 1 + i < argc; i++) keys.push(spec.at + 1 + i);
    }
    let slot = NO_SLOT;
    let firstKey = 0;
    for (const i of keys) {
      const s = keySlot(buf, this.starts[i] as number, this.ends[i] as number);
      if (slot === NO_SLOT) {
        slot = s;
        firstKey = i;
      } else if (s !== slot) {
        const name = (k: number): string => buf.toString('utf8', this.starts[k], this.ends[k]);
        throw new SlotRefusal(
          `CROSSSLOT: ${this.lastUpper}'s keys "${name(firstKey)}" and "${name(i)}" hash to different slots (${slot} and ${s}); ` +
            `in a cluster every key of one command must share a slot: give them a common hash tag, e.g. {${name(firstKey)}}…`,
        );
      }
    }
    return slot;
  }

  private specOf(buf: Buffer, start: number, end: number): KeySpec {
    const len = end - start;
    if (len === this.lastLen && buf.compare(this.lastName, 0, len, start, end) === 0) return this.lastSpec;
    let upper = '';
    for (let i = start; i < Math.min(end, start + MAX_NAME); i++) {
      const b = buf[i] as number;
      upper += String.fromCharCode(b >= 97 && b <= 122 ? b - 32 : b);
    }
    const spec = SPECS.get(upper) ?? FIRST;
    if (len <= MAX_NAME) {
      buf.copy(this.lastName, 0, start, end);
      this.lastLen = len;
    } else {
      this.lastLen = -1;
    }
    this.lastSpec = spec;
    this.lastUpper = upper;
    return spec;
  }
}
