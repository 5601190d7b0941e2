import { AppError } from '../../../app/errors';
import type { NodeLinkState } from '../../../app/schemas/pubsub';
import { LiveLink } from '../live/liveLink';
import { encodeCommand } from '../resp/encodeCommand';
import type { RawConnection } from '../resp/rawConnection';
import { keySlot } from '../resp/slot';
import { escapeBytes } from '../text/escapeBytes';
import { kindOf, PushReader, type Kept, type PushItem } from './pushReader';

export type NameKind = 'channel' | 'pattern' | 'shard';

/** One message as read: the kept bytes of each part, shared by every viewer it goes to. */
export interface RawMessage {
  at: number;
  node: string;
  kind: 'message' | 'pmessage' | 'smessage';
  channel: Kept;
  pattern?: Kept;
  payload: Kept;
}

/** One viewer's place on a node. */
export interface Member {
  message(m: RawMessage): void;
  state(state: NodeLinkState, message?: string): void;
  gap(from: number, to: number, reason: string): void;
  notice(message: string): void;
  /** The node refused a name this member asked for, or could not be reached at all: its stream ends. */
  end(err: AppError): void;
  /** Redis dropped this shard channel here unasked (its slot moved to another master): follow it. Without it, a notice. */
  moved?(name: Buffer): void;
  /** A reconnect to this node failed (it was live before): a cluster may serve these names elsewhere now. */
  lost?(): void;
}

export interface WantedName {
  kind: NameKind;
  name: Buffer;
}

interface Entry {
  kind: NameKind;
  key: string;
  name: Buffer;
  members: Set<Member>;
  /** Redis confirmed the subscription on the current connection. */
  confirmed: boolean;
}

/** A (un)subscribe sent and the confirmations it still owes: one per name, or one error for the command. */
interface Pending {
  kind: NameKind;
  subscribe: boolean;
  keys: string[];
  left: number;
}

const SUBSCRIBE: Record<NameKind, string> = { channel: 'SUBSCRIBE', pattern: 'PSUBSCRIBE', shard: 'SSUBSCRIBE' };
const UNSUBSCRIBE: Record<NameKind, string> = { channel: 'UNSUBSCRIBE', pattern: 'PUNSUBSCRIBE', shard: 'SUNSUBSCRIBE' };
const CONFIRMS: Record<string, { kind: NameKind; subscribe: boolean }> = {
  subscribe: { kind: 'channel', subscribe: true },
  psubscribe: { kind: 'pattern', subscribe: true },
  ssubscribe: { kind: 'shard', subscribe: true },
  unsubscribe: { kind: 'channel', subscribe: false },
  punsubscribe: { kind: 'pattern', subscribe: false },
  sunsubscribe: { kind: 'shard', subscribe: false },
};
/** Names per SUBSCRIBE: one command stays small, and an ACL refusal names few. */
const NAMES_PER_COMMAND = 100;

/** Names as a message shows them: escaped, quoted, the first few. */
export function namesText(names: readonly Buffer[]): string {
  const shown = names.slice(0, 3).map((n) => `"${escapeBytes(n, 0, n.length, { quote: true, maxChars: 80 }).text}"`);
  return names.length > 3 ? `${shown.join(' ')} and ${names.length - 3} more` : shown.join(' ');
}

/** What a viewer is told when a shard channel's slot moved and it could not follow. */
export function movedAwayText(name: Buffer, address: string): string {
  return `Shard channel ${namesText([name])} is no longer served by ${address} (its slot moved): subscribe again to follow it.`;
}

/**
 * One subscriber connection to one node (a LiveLink), shared by every viewer of the
 * node: it holds the union of what they asked for, subscribes a name when its first
 * viewer wants it and unsubscribes it when its last one leaves, and hands each
 * message to the viewers of its channel, pattern or shard channel. After a reconnect
 * it subscribes everything again; a viewer is `live` once every name it wants here
 * is confirmed by Redis.
 */
export class SubscriberNode {
  /** Messages read on this connection since it opened, whoever they were for. */
  received = 0;
  private readonly entries: Record<NameKind, Map<string, Entry>> = { channel: new Map(), pattern: new Map(), shard: new Map() };
  private readonly members = new Map<Member, Entry[]>();
  /** Members told `live` since the link last connected. */
  private readonly ready = new Set<Member>();
  private pending: Pending[] = [];
  private readonly link: LiveLink;
  private readonly reader: PushReader;
  private now = 0;
  private wasOpened = false;
  private droppedAt: number | undefined;

  constructor(
    readonly address: string,
    open: () => Promise<RawConnection>,
    keepBytes: number,
  ) {
    this.reader = new PushReader(keepBytes, { push: (items) => this.onPush(items), error: (m) => this.onError(m) });
    const openOrLost = async (): Promise<RawConnection> => {
      try {
        return await open();
      } catch (err) {
        // A failed first connection is fatal (LiveLink); a failed reconnect may be a master that is gone for good.
        if (this.wasOpened) for (const member of [...this.members.keys()]) member.lost?.();
        throw err;
      }
    };
    this.link = new LiveLink(address, openOrLost, {
      opened: () => this.onOpened(),
      data: (chunk) => {
        this.now = Date.now();
        try {
          this.reader.feed(chunk);
        } catch (e) {
          // Not RESP (a proxy, a wrong port): nothing after it can be trusted, and a throw here would end the process.
          this.link.refuse(new AppError('INTERNAL', `${address} sent what is not a Pub/Sub reply: ${e instanceof Error ? e.message : String(e)}`));
        }
      },
      state: (s, m) => {
        if (s !== 'live') this.ready.clear();
        if (s === 'live') this.droppedAt = undefined;
        else if (s === 'reconnecting') this.droppedAt ??= this.link.lastSeen ?? Date.now();
        for (const member of this.members.keys()) member.state(s === 'live' ? 'subscribing' : s, m);
      },
      gap: (from, to, reason) => {
        for (const member of this.members.keys()) member.gap(from, to, reason);
      },
      fatal: (err) => {
        for (const member of [...this.members.keys()]) member.end(err);
      },
    });
  }

  /** Since when nothing was heard here while the link is down (the last message, or the drop); undefined while live. */
  get downSince(): number | undefined {
    return this.droppedAt;
  }

  get size(): number {
    return this.members.size;
  }

  start(): void {
    this.link.start();
  }

  stop(): void {
    this.link.stop();
  }

  /** Whether our connection is subscribed to `name` now (confirmed), for the overview's "ours". */
  holds(kind: NameKind, name: Buffer): boolean {
    return this.entries[kind].get(name.toString('latin1'))?.confirmed === true;
  }

  add(member: Member, names: readonly WantedName[]): void {
    const list: Entry[] = [];
    const fresh: Entry[] = [];
    for (const { kind, name } of names) {
      const key = name.toString('latin1');
      let e = this.entries[kind].get(key);
      if (e === undefined) {
        e = { kind, key, name, members: new Set(), confirmed: false };
        this.entries[kind].set(key, e);
        fresh.push(e);
      }
      if (!e.members.has(member)) list.push(e);
      e.members.add(member);
    }
    this.members.set(member, list);
    const live = this.link.state === 'live';
    member.state(live ? 'subscribing' : this.link.state);
    if (live) this.subscribe(fresh);
    this.checkReady(member);
  }

  /** The member leaves; returns how many members are left (the hub closes the node at 0). */
  remove(member: Member): number {
    const list = this.members.get(member);
    if (list === undefined) return this.members.size;
    this.members.delete(member);
    this.ready.delete(member);
    const gone: Entry[] = [];
    for (const e of list) {
      e.members.delete(member);
      if (e.members.size > 0 || this.entries[e.kind].get(e.key) !== e) continue;
      this.entries[e.kind].delete(e.key);
      gone.push(e);
    }
    if (this.link.state === 'live' && gone.length > 0) this.send(gone, false);
    return this.members.size;
  }

  private onOpened(): void {
    this.wasOpened = true;
    this.reader.reset();
    this.pending = [];
    this.ready.clear();
    const all: Entry[] = [];
    for (const map of Object.values(this.entries)) {
      for (const e of map.values()) {
        e.confirmed = false;
        all.push(e);
      }
    }
    this.subscribe(all);
  }

  private subscribe(entries: readonly Entry[]): void {
    if (entries.length > 0) this.send(entries, true);
  }

  /** (UN)SUBSCRIBE in commands of at most NAMES_PER_COMMAND names; shard channels one slot a command (a cluster refuses CROSSSLOT). */
  private send(entries: readonly Entry[], subscribe: boolean): void {
    const groups = new Map<string, Entry[]>();
    for (const e of entries) {
      const g = e.kind === 'shard' ? `shard:${keySlot(e.name)}` : e.kind;
      const list = groups.get(g) ?? [];
      if (list.length === 0) groups.set(g, list);
      list.push(e);
    }
    const out: Buffer[] = [];
    for (const list of groups.values()) {
      for (let i = 0; i < list.length; i += NAMES_PER_COMMAND) {
        const part = list.slice(i, i + NAMES_PER_COMMAND);
        const kind = (part[0] as Entry).kind;
        out.push(encodeCommand([(subscribe ? SUBSCRIBE : UNSUBSCRIBE)[kind], ...part.map((e) => e.name)]));
        this.pending.push({ kind, subscribe, keys: part.map((e) => e.key), left: part.length });
      }
    }
    this.link.write(Buffer.concat(out));
  }

  private onPush(items: PushItem[]): void {
    const type = kindOf(items[0]);
    switch (type) {
      case 'message':
        this.deliver('channel', 'message', items[1], undefined, items[2]);
        return;
      case 'smessage':
        this.deliver('shard', 'smessage', items[1], undefined, items[2]);
        return;
      case 'pmessage':
        this.deliver('pattern', 'pmessage', items[2], items[1], items[3]);
        return;
      default: {
        const confirm = type === undefined ? undefined : CONFIRMS[type];
        const name = items[1];
        if (confirm !== undefined && name !== null && typeof name === 'object') this.onConfirm(confirm.kind, confirm.subscribe, name.bytes);
      }
    }
  }

  private deliver(kind: NameKind, type: RawMessage['kind'], channel: PushItem | undefined, pattern: PushItem | undefined, payload: PushItem | undefined): void {
    this.received++;
    this.link.lastSeen = this.now;
    if (!isKept(channel) || !isKept(payload)) return;
    const by = kind === 'pattern' ? pattern : channel;
    if (!isKept(by) || by.length > by.bytes.length) return; // a name cut short is none of ours (ours are at most 1 KB)
    const e = this.entries[kind].get(by.bytes.toString('latin1'));
    if (e === undefined) return; // unsubscribed a moment ago
    const m: RawMessage = { at: this.now, node: this.address, kind: type, channel, payload };
    if (isKept(pattern)) m.pattern = pattern;
    for (const member of e.members) member.message(m);
  }

  private onConfirm(kind: NameKind, subscribe: boolean, name: Buffer): void {
    const key = name.toString('latin1');
    const head = this.pending[0];
    if (head !== undefined && head.kind === kind && head.subscribe === subscribe) {
      head.left -= 1;
      if (head.left <= 0) this.pending.shift();
    } else if (!subscribe && kind === 'shard') {
      // Not asked for: Redis drops shard subscribers when their slot moves to another node.
      const e = this.entries.shard.get(key);
      if (e === undefined) return;
      e.confirmed = false;
      const text = movedAwayText(name, this.address);
      for (const member of [...e.members]) {
        if (member.moved === undefined) member.notice(text);
        else member.moved(name);
      }
      return;
    }
    if (!subscribe) return;
    const e = this.entries[kind].get(key);
    if (e === undefined || e.confirmed) return;
    e.confirmed = true;
    for (const member of e.members) this.checkReady(member);
  }

  private onError(message: string): void {
    const head = this.pending.shift();
    if (head === undefined || !head.subscribe) return;
    const names = head.keys.map((k) => Buffer.from(k, 'latin1'));
    const code = message.startsWith('NOPERM') ? 'NOPERM' : 'REDIS';
    const err = new AppError(code, `${this.address} refused ${SUBSCRIBE[head.kind]} ${namesText(names)}: ${message}`);
    const affected = new Set<Member>();
    for (const key of head.keys) {
      const e = this.entries[head.kind].get(key);
      if (e !== undefined && !e.confirmed) for (const m of e.members) affected.add(m);
    }
    for (const m of affected) m.end(err);
  }

  private checkReady(member: Member): void {
    if (this.link.state !== 'live' || this.ready.has(member)) return;
    const list = this.members.get(member);
    if (list === undefined || !list.every((e) => e.confirmed)) return;
    this.ready.add(member);
    member.state('live');
  }
}

function isKept(v: PushItem | undefined): v is Kept {
  return v !== null && typeof v === 'object';
}
