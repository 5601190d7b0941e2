import { AppError } from '../../../../app/errors';
import type { ConsoleLink } from './consoleLink';

/** A console's connections close after this long unused. */
export const CONSOLE_IDLE_MS = 5 * 60_000;
/** Consoles (pages) a user keeps connections for; a ninth closes the least recently used. */
export const CONSOLES_PER_USER = 8;
const SWEEP_MS = 30_000;

/** Which console a connection belongs to: the user and the page's console id. */
export interface ConsoleOwner {
  user: string;
  consoleId: string;
}

/** Which connection of a console: the profile as the session reaches it, the node, the protocol. */
export interface LinkWhere {
  connectionId: string;
  address: string;
  protocol: 2 | 3;
}

interface Console {
  user: string;
  lastUsed: number;
  links: Map<string, Promise<ConsoleLink>>;
}

/**
 * Every console's connections: per (user, console id, connection id, node, protocol), opened
 * on first use and kept so SELECT, MULTI and CLIENT SETNAME persist between lines as they do
 * in redis-cli. Bounded: CONSOLES_PER_USER consoles a user, idle ones closed after CONSOLE_IDLE_MS.
 */
export class ConsoleLinks {
  private readonly consoles = new Map<string, Console>();
  private sweeper: NodeJS.Timeout | undefined;
  private shut = false;

  constructor(
    private readonly idleMs = CONSOLE_IDLE_MS,
    private readonly perUser = CONSOLES_PER_USER,
  ) {}

  /** The console's connection to `where`, opened with `open` when it has none (or its last one died). */
  async link(owner: ConsoleOwner, where: LinkWhere, open: () => Promise<ConsoleLink>): Promise<ConsoleLink> {
    if (this.shut) throw new AppError('CANCELLED', 'Cacheboard is shutting down: the console takes no more commands');
    const c = this.console(owner);
    c.lastUsed = Date.now();
    const key = `${where.connectionId}\0${where.address}\0${where.protocol}`;
    const known = c.links.get(key);
    if (known !== undefined) {
      const link = await known.catch(() => undefined);
      if (link !== undefined && !link.closed) return link;
      if (c.links.get(key) === known) c.links.delete(key);
    }
    const opening = open();
    c.links.set(key, opening);
    opening.catch(() => {
      if (c.links.get(key) === opening) c.links.delete(key);
    });
    this.ensureSweep();
    return opening;
  }

  /** Close every connection (shutdown); later calls to link() fail. */
  async closeAll(): Promise<void> {
    this.shut = true;
    clearInterval(this.sweeper);
    const all = [...this.consoles.values()];
    this.consoles.clear();
    await Promise.all(all.map((c) => closeConsole(c)));
  }

  /** Connections open now, for tests and figures. */
  async openCount(): Promise<number> {
    let n = 0;
    for (const c of this.consoles.values()) {
      for (const p of c.links.values()) if ((await p.catch(() => undefined))?.closed === false) n++;
    }
    return n;
  }

  private console(owner: ConsoleOwner): Console {
    const id = `${owner.user}\0${owner.consoleId}`;
    let c = this.consoles.get(id);
    if (c !== undefined) return c;
    const mine = [...this.consoles.entries()].filter(([, v]) => v.user === owner.user);
    if (mine.length >= this.perUser) {
      // The user's least recently used console goes: a page long closed, most likely.
      const [oldId, oldest] = mine.reduce((a, b) => (b[1].lastUsed < a[1].lastUsed ? b : a));
      this.consoles.delete(oldId);
      void closeConsole(oldest);
    }
    c = { user: owner.user, lastUsed: Date.now(), links: new Map() };
    this.consoles.set(id, c);
    return c;
  }

  private ensureSweep(): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => this.sweep(), Math.min(SWEEP_MS, this.idleMs));
    this.sweeper.unref();
  }

  /** Close links unused for idleMs (never one running a command: it is in use); drop empty consoles. */
  sweep(now = Date.now()): void {
    for (const [id, c] of this.consoles) {
      for (const [key, p] of c.links) {
        void p.then(
          (link) => {
            if (link.closed || (!link.busy && now - link.lastUsed > this.idleMs)) {
              if (c.links.get(key) === p) c.links.delete(key);
              void link.close();
            }
          },
          () => undefined,
        );
      }
      if (c.links.size === 0 && now - c.lastUsed > this.idleMs) this.consoles.delete(id);
    }
  }
}

async function closeConsole(c: Console): Promise<void> {
  const links = await Promise.all([...c.links.values()].map((p) => p.catch(() => undefined)));
  c.links.clear();
  await Promise.all(links.map((l) => l?.close()));
}
