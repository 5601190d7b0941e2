import { FIRST_KEY as FIRST, inTransaction, keysOf, type KeySpec as CommandKeys, type KeyRange, type NumKeys } from '../../../../app/redis/commands';
import { keySlot } from '../../resp/slot';

/** The command's keys (from the one command table), or a transaction the load refuses. */
type KeySpec = CommandKeys | 'transaction';

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
 * the bytes. Where the keys are comes from the command table (app/redis/commands.ts):
 * argument 1 for commands it does not name, as most Redis commands do.
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
    const spec = inTransaction(upper) ? 'transaction' : keysOf(upper);
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
