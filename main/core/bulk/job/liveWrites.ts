import type { ChainableCommander, Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import type { LoadReport } from '../../../../app/schemas/bulk';
import { readRefusal } from '../../redis/refusal';
import { keyName } from '../../text/keyText';
import { commandRefusal, errorText } from './commandRefusal';
import type { ControlLease } from './controlLink';
import { holdSetting, releaseSetting, type SettingHold, type SettingSpec } from './heldSetting';

export type LiveWritesReport = NonNullable<LoadReport['liveWrites']>;

/** Key names kept for the report: enough to recognise the application, bounded whatever it writes. */
export const LIVE_WRITE_SAMPLE = 5;

/** How long the subscriber may take to deliver a sync message before the count is called unknown. */
const SYNC_TIMEOUT_MS = 10_000;

/**
 * The event classes of every write command (g: DEL, EXPIRE, RENAME…; $ l s h z t:
 * strings, lists, sets, hashes, sorted sets, streams) and E: keyevent channels,
 * `__keyevent@<db>__:<event>` with the key as the message.
 */
const WRITE_CLASSES = 'g$lshzt';

/** Events Redis raises itself or for reads: not another client's write. */
const NOT_WRITES = new Set(['expired', 'evicted', 'new', 'keymiss']);

/** notify-keyspace-events with the flags the count needs added to the server's own (A covers every class). */
export function withWriteEvents(current: string): string {
  let out = current;
  if (!current.includes('E')) out += 'E';
  if (!current.includes('A')) for (const c of WRITE_CLASSES) if (!out.includes(c)) out += c;
  return out;
}

const NOTIFY: SettingSpec = {
  param: 'notify-keyspace-events',
  want: withWriteEvents,
  name: 'notify-keyspace-events',
  alreadyNote: 'notify-keyspace-events already raised the write events the count needs; left unchanged',
};

/**
 * Counts the writes other clients make to the live DB while a swap load
 * stages: SWAPDB replaces the whole DB, so each of them is discarded at the
 * switch, and the load must say so (or refuse).
 *
 * Why keyspace notifications: Redis keeps no per-DB write counter. DBSIZE and
 * INFO keyspace see only keys added or removed (an overwrite, an HSET into an
 * existing hash, a DEL then SET of one key leave them as they were); INFO's
 * dirty counter (rdb_changes_since_last_save) is server-wide and moved by the
 * load's own writes into staging; WATCH covers named keys, not a DB. A keyevent
 * notification is published for every key every write command touches, on a
 * channel naming its DB, so a pattern subscription to `__keyevent@<live>__:*`
 * counts exactly the writes into the live DB, and none of the load's (it only
 * writes staging). The price: notify-keyspace-events is server-wide, so during
 * the load Redis builds an event for every key written in any DB (matched
 * against our one pattern only). It is put back after the load and journaled
 * before it is changed (heldSetting.ts), like `save`, so a crash restores it.
 *
 * Order is exact: one connection's replies and messages arrive in the order
 * the server produced them, so a message PUBLISHed on our own channel after
 * (or, at the switch, in the same MULTI as SWAPDB, before it) arrives after
 * every event of the writes before it.
 */
export class LiveWriteCounter {
  private writes = 0;
  private readonly keys: string[] = [];
  /** Why the count is not (or no longer) complete; undefined while it is. */
  private broken: string | undefined;
  /** The command whose refusal left the writes uncounted, for the report's restrictions. */
  missing: string | undefined;
  /** The switch's message arrived: writes after it went into the new data, not discarded. */
  private closed = false;
  private syncSeq = 0;
  private readonly waiting = new Map<string, () => void>();
  private readonly channel: string;

  private constructor(
    readonly db: number,
    private readonly sub: ControlLease | undefined,
    private hold: SettingHold | undefined,
    jobId: string,
    unavailable: string | undefined,
  ) {
    this.channel = `cacheboard:bulk:${jobId}:sync`;
    this.broken = unavailable;
  }

  /**
   * Subscribe first, then turn the events on: no write after this returns goes
   * uncounted. Never throws for a refusal (CONFIG, PSUBSCRIBE denied): the
   * counter then says the writes could not be counted.
   */
  static async start(
    control: Redis,
    lease: () => Promise<ControlLease>,
    opts: { db: number; jobId: string; journalDir: string; host: string; port: number },
  ): Promise<LiveWriteCounter> {
    let sub: ControlLease | undefined;
    try {
      sub = await lease();
      const counter = new LiveWriteCounter(opts.db, sub, undefined, opts.jobId, undefined);
      await counter.listen(sub.redis);
      const hold = await holdSetting(control, NOTIFY, opts);
      counter.hold = hold;
      if (hold.applied === undefined) {
        counter.broken = hold.warning ?? 'CONFIG is not available';
        counter.missing = 'CONFIG';
      }
      return counter;
    } catch (err) {
      const refused = commandRefusal(err);
      if (refused === undefined) {
        await sub?.release().catch(() => undefined);
        throw err;
      }
      await sub?.release().catch(() => undefined);
      const counter = new LiveWriteCounter(opts.db, undefined, undefined, opts.jobId, `keyspace notifications are not available (${refused})`);
      counter.missing = readRefusal(err, ['PSUBSCRIBE'])?.command;
      return counter;
    }
  }

  private async listen(redis: Redis): Promise<void> {
    const prefix = `__keyevent@${this.db}__:`;
    redis.on('pmessageBuffer', (_pattern: Buffer, channel: Buffer, key: Buffer) => {
      if (this.closed) return;
      const event = channel.toString('latin1').slice(prefix.length);
      if (NOT_WRITES.has(event)) return;
      this.writes++;
      if (this.keys.length < LIVE_WRITE_SAMPLE) this.keys.push(keyName(key).text);
    });
    redis.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      if (message.startsWith('switch:')) this.closed = true;
      this.waiting.get(message)?.();
    });
    const lost = (): void => {
      if (this.closed) return;
      this.broken ??= 'the connection counting them was closed during the load';
      for (const done of this.waiting.values()) done();
    };
    redis.on('end', lost);
    redis.on('close', lost);
    await redis.subscribe(this.channel);
    await redis.psubscribe(`${prefix}*`);
  }

  /** Resolves once `message` PUBLISHed on our channel came back, or the count is known broken. */
  private arrival(message: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.broken ??= `the count's sync message did not come back within ${SYNC_TIMEOUT_MS / 1000} s`;
        done();
      }, SYNC_TIMEOUT_MS);
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(message);
        resolve();
      };
      this.waiting.set(message, done);
    });
  }

  /**
   * The writes counted up to now: every event raised before this call's
   * PUBLISH has arrived when it returns. Also checks that the events are still
   * on (another process's load ending may have put the setting back).
   */
  async settle(control: Redis): Promise<number | undefined> {
    if (this.broken !== undefined || this.sub === undefined) return undefined;
    const message = `sync:${++this.syncSeq}`;
    const arrived = this.arrival(message);
    try {
      await control.publish(this.channel, message);
    } catch (err) {
      const refused = commandRefusal(err);
      if (refused === undefined) throw err;
      // Never queued in the switch's MULTI then: a refused command there would abort the SWAPDB.
      if (this.broken === undefined) {
        this.broken = `PUBLISH is not available (${refused})`;
        this.missing = 'PUBLISH';
      }
      this.waiting.get(message)?.();
      return undefined;
    }
    await arrived;
    await this.checkStillOn(control);
    return this.broken === undefined ? this.writes : undefined;
  }

  private async checkStillOn(control: Redis): Promise<void> {
    try {
      const reply = (await control.config('GET', NOTIFY.param)) as unknown;
      const now = Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : '';
      if (withWriteEvents(now) !== now) this.broken ??= `notify-keyspace-events was changed to "${now}" during the load`;
    } catch (err) {
      this.broken ??= `notify-keyspace-events could not be read back (${errorText(err)})`;
    }
  }

  /** Queued in the switch's MULTI just before SWAPDB: the count closes exactly at the switch. Returns whether a command was queued. */
  markSwitch(tx: ChainableCommander): boolean {
    if (this.sub === undefined || this.broken !== undefined) return false;
    tx.publish(this.channel, 'switch:1');
    return true;
  }

  /** After SWAPDB: waits for the switch's message, so every write before it is counted. */
  async afterSwitch(): Promise<void> {
    if (this.sub === undefined || this.broken !== undefined || this.closed) return;
    await this.arrival('switch:1');
  }

  /** The report's figures; `swapped`: the writes counted were discarded. */
  report(swapped: boolean): LiveWritesReport {
    const counted = this.broken === undefined && this.sub !== undefined;
    const out: LiveWritesReport = { db: this.db, discarded: counted && swapped ? this.writes : 0, keys: [...this.keys] };
    if (counted) out.writes = this.writes;
    else
      out.note = `writes to DB ${this.db} during the load could not be counted: ${this.broken ?? 'unknown'}${this.writes > 0 ? ` (at least ${this.writes} were seen)` : ''}`;
    return out;
  }

  get seen(): number {
    return this.writes;
  }

  get sample(): readonly string[] {
    return this.keys;
  }

  /** The subscriber closed and notify-keyspace-events put back. Never throws; returns a warning when the setting could not be put back. */
  async stop(connections: (() => Promise<Redis>)[]): Promise<string | undefined> {
    this.closed = true;
    for (const done of this.waiting.values()) done();
    await this.sub?.release().catch(() => undefined);
    if (this.hold === undefined) return undefined;
    try {
      const r = await releaseSetting(this.hold, NOTIFY.name, connections);
      return r !== undefined && !r.restored && r.note !== undefined ? `notify-keyspace-events: ${r.note}` : undefined;
    } catch (err) {
      return `notify-keyspace-events may still be "${this.hold.applied ?? '?'}": ${errorText(err)}; the journal restores it at the next start`;
    }
  }
}

/**
 * Before SWAPDB: SWAPDB replaces the whole live DB, so a write another client
 * made to it during the load is lost at the switch. Refused unless `allow`
 * (--allow-live-writes), naming that option. Where the writes could not be
 * counted, a live DB that gained keys still proves some: refused likewise;
 * otherwise the report says they were not counted, never zero.
 */
export async function refuseLiveWrites(
  counter: LiveWriteCounter,
  control: Redis,
  o: { allow: boolean; keysBefore: number | undefined; keysNow: number; log: { warn(m: string): void } },
): Promise<void> {
  const db = counter.db;
  const counted = await counter.settle(control);
  let what: string | undefined;
  if (counted !== undefined) {
    if (counted === 0) return;
    const first = counter.sample.length > 0 ? ` (first keys: ${counter.sample.join(', ')})` : '';
    what = `Other clients wrote to the live DB ${db} ${counted} time${counted === 1 ? '' : 's'} during the load${first}`;
  } else if (o.keysBefore !== undefined && o.keysNow > o.keysBefore) {
    // Only growth proves a write: keys expiring on their TTL shrink the count on their own.
    what = `The live DB ${db} held ${o.keysBefore} keys when the load began and holds ${o.keysNow} now: other clients wrote to it during the load`;
  } else {
    return;
  }
  if (o.allow) {
    o.log.warn(`${what}; the switch discards those writes, as --allow-live-writes allows`);
    return;
  }
  throw new AppError(
    'VALIDATION',
    `${what}: SWAPDB replaces the whole DB and would discard them. Refused, nothing was replaced; pass --allow-live-writes (on the page: "Switch even if the live DB was written to") to switch anyway`,
    'allowLiveWrites',
  );
}
