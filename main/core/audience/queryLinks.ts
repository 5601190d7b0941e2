import { createHash } from 'node:crypto';
import type { ProfileSpec } from '../../../app/schemas/connections';
import type { RawConnection } from '../resp/rawConnection';
import { connectionFor } from '../resp/rawTarget';
import { linkOver } from './openLink';
import type { QueryTarget } from './queryAudience';

/** CLIENT SETNAME of the kept connections, for CLIENT LIST. */
export const QUERY_CONNECTION_NAME = 'cacheboard:audience:query';
const DEFAULT_IDLE_MS = 60_000;

interface Entry {
  /** Hash of the spec it was opened with: an edited profile gets a new connection. */
  fingerprint: string;
  ready: Promise<QueryTarget & { conn: RawConnection }>;
  busy: number;
  lastUsed: number;
  /** Replaced or swept: closes when its last query is done. */
  retired: boolean;
}

const fingerprintOf = (spec: ProfileSpec, db: number) =>
  createHash('sha256')
    .update(JSON.stringify([spec, db]))
    .digest('hex');

/**
 * One raw connection per (connection id, DB) kept for audience queries, so a query pays
 * no connect, AUTH or SELECT: an answer within a few ms is the point of the call.
 * Queries on one connection pipeline (RespPipe matches replies in order), and each uses
 * its own scratch names. A connection the server closed is dropped and reopened on the
 * next query; one unused for `idleMs` is closed.
 */
export class AudienceQueryLinks {
  private readonly entries = new Map<string, Entry>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs = DEFAULT_IDLE_MS) {}

  /** Runs `fn` over the connection kept for `connectionId` and `db`, opening it on first use. */
  async use<T>(connectionId: string, spec: ProfileSpec, db: number, fn: (t: QueryTarget) => Promise<T>): Promise<T> {
    const key = `${connectionId}/${db}`;
    const fingerprint = fingerprintOf(spec, db);
    let entry = this.entries.get(key);
    if (entry !== undefined && entry.fingerprint !== fingerprint) {
      this.retire(key, entry);
      entry = undefined;
    }
    if (entry === undefined) entry = this.open(key, fingerprint, spec, db);
    entry.busy++;
    try {
      return await fn(await entry.ready);
    } finally {
      entry.busy--;
      entry.lastUsed = performance.now();
      if (entry.retired && entry.busy === 0) void this.close(entry);
    }
  }

  /** Closes every kept connection (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => this.close(e)));
  }

  private open(key: string, fingerprint: string, spec: ProfileSpec, db: number): Entry {
    const c = connectionFor(spec, db, QUERY_CONNECTION_NAME);
    const ready = c.connect().then((conn) => {
      // Lost (server restart, CLIENT KILL, timeout): the next query opens a new one.
      conn.socket.once('close', () => this.forget(key, entry));
      return {
        conn,
        connect: c.connect,
        checked: new Set<string>(),
        link: linkOver(conn, c.errorContext, 'during an audience query; its scratch keys expire on their own.'),
      };
    });
    const entry: Entry = { fingerprint, ready, busy: 0, lastUsed: performance.now(), retired: false };
    // A failed connect is not kept: the caller gets the error, the next query tries again.
    ready.catch(() => this.forget(key, entry));
    this.entries.set(key, entry);
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(50, this.idleMs / 2)).unref();
    return entry;
  }

  private sweep(): void {
    const now = performance.now();
    for (const [key, e] of this.entries) if (e.busy === 0 && now - e.lastUsed > this.idleMs) this.retire(key, e);
  }

  private retire(key: string, entry: Entry): void {
    this.forget(key, entry);
    entry.retired = true;
    if (entry.busy === 0) void this.close(entry);
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    if (this.entries.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private async close(entry: Entry): Promise<void> {
    try {
      await (await entry.ready).conn.close();
    } catch {
      // It never opened, or it is already gone.
    }
  }
}
