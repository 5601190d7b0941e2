import { AppError } from '../../../app/errors';
import { encodeCommand } from '../resp/encodeCommand';
import { RespBuilder } from '../resp/respBuilder';
import { ReplyError, type Reply } from '../resp/replyReader';
import type { RespPipe } from '../resp/respPipe';
import { typeIndex } from './aggregate';
import { fieldsExpireOf, type FieldExpiryCheck } from './fieldExpiry';
import type { KeyProber } from './keyProber';
import type { KeySink } from './masterTally';
import { ENCODINGS, PER_KEY, PROBE_SCRIPT, PROBE_SHA } from './probeScript';

const HASH = typeIndex('hash');
const OTHER = typeIndex('other');
/**
 * Probes a group of keys with one EVALSHA of PROBE_SCRIPT: the server answers type, encoding,
 * memory, TTL and length of every key in one reply, and runs no per-command dispatch for them
 * (reading, parsing and answering four or five commands a key is most of what a pipelined
 * census costs the server beyond the commands' own work). Node writes one command a group and
 * reads one flat array back. A script is atomic: a key cannot change between its probes.
 *
 * Where the script turns out to be refused (an ACL that let SCRIPT LOAD through), this group and
 * every later one go to `plain` (the pipelined Prober), and the report says so.
 */
export class ScriptProber implements KeyProber {
  private readonly builder = new RespBuilder(1 << 20);
  /** EVALSHA sha 0 SAMPLES modules: the keys follow. */
  private readonly head: Buffer;
  private refused: string | null = null;

  constructor(
    private readonly pipe: RespPipe,
    private readonly into: KeySink,
    memorySamples: number,
    /** Whether the server has modules loaded (or may have: INFO was refused). */
    modules: boolean,
    private readonly fieldExpiry: FieldExpiryCheck | null,
    private readonly plain: KeyProber,
  ) {
    const n = String(memorySamples);
    this.head = Buffer.from(`$7\r\nEVALSHA\r\n$40\r\n${PROBE_SHA}\r\n$1\r\n0\r\n$${n.length}\r\n${n}\r\n$1\r\n${modules ? 1 : 0}\r\n`);
  }

  async probe(keys: Buffer[]): Promise<void> {
    if (this.refused !== null) return this.plain.probe(keys);
    let reply = await this.evalsha(keys);
    // The script cache was emptied since it was loaded (SCRIPT FLUSH, a restart, a failover to a replica).
    if (reply instanceof ReplyError && reply.message.startsWith('NOSCRIPT')) {
      await this.pipe.send(encodeCommand(['SCRIPT', 'LOAD', PROBE_SCRIPT]), 1);
      reply = await this.evalsha(keys);
    }
    // Refused (an ACL without EVALSHA, or without a command the script runs, which Redis words
    // as "the user executing the script can't run this command"), or failed in a way plain
    // commands may not: this group goes again by plain commands, which either measure it or end
    // the run with the server's own error naming the command (NOPERM … 'memory|usage').
    if (reply instanceof ReplyError) {
      this.refused ??= reply.message;
      return this.plain.probe(keys);
    }
    if (!Array.isArray(reply) || reply.length !== keys.length * PER_KEY) {
      throw new AppError('INTERNAL', 'The census script answered with something other than five values a key.');
    }
    await this.record(keys, reply);
  }

  warnings(): string[] {
    const mine = this.refused === null ? [] : [`the census script was refused (${this.refused}): keys were probed with plain commands`];
    return [...mine, ...this.plain.warnings()];
  }

  private async evalsha(keys: Buffer[]): Promise<Reply | undefined> {
    const b = this.builder.command(5 + keys.length).raw(this.head);
    for (const k of keys) b.argBytes(k, 0, k.length);
    const payload = b.take();
    const [reply] = await this.pipe.send(payload, 1, true);
    this.builder.recycle(payload);
    return reply;
  }

  /** Each key's five values into the sink; hashes without a key TTL first get their field-expiry check. */
  private async record(keys: Buffer[], r: Reply[]): Promise<void> {
    const fieldsExpire = await fieldsExpireOf(
      this.fieldExpiry,
      {
        key: (i) => keys[i] as Buffer,
        isHash: (i) => r[i * PER_KEY] === HASH,
        pttl: (i) => r[i * PER_KEY + 3] as number,
        encoding: (i) => encodingOf(r[i * PER_KEY + 1]),
        length: (i) => r[i * PER_KEY + 4] as number,
      },
      keys.length,
    );
    for (let i = 0; i < keys.length; i++) {
      const o = i * PER_KEY;
      const t = r[o];
      if (t === -1) {
        this.into.addMissing();
        continue;
      }
      // A module's type comes by name, and its encoding says little ("raw"): the name says which module.
      const moduleType = typeof t === 'string';
      const type = moduleType ? OTHER : (t as number);
      const encoding = moduleType ? t : encodingOf(r[o + 1]);
      this.into.add(keys[i] as Buffer, type, encoding, r[o + 2] as number, r[o + 3] as number, r[o + 4] as number, fieldsExpire.has(i));
    }
  }
}

/** An encoding as the script answers it: its index in ENCODINGS, or its name. */
function encodingOf(r: Reply | undefined): string {
  return typeof r === 'number' ? (ENCODINGS[r] ?? String(r)) : String(r);
}
