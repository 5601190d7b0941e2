import type { FailoverEvent, NodeSample } from '../../../app/schemas/metrics';

export const MAX_FAILOVERS = 50;
/** The same promotion seen by polling and by Sentinel within this long is one failover. */
export const SAME_FAILOVER_MS = 30_000;

/** INFO says "slave" in older servers' wording; the contract says replica. */
function roleName(role: string): string {
  return role === 'slave' ? 'replica' : role;
}

/**
 * Failovers of one profile, newest last, at most MAX_FAILOVERS kept. A role
 * change is seen between two polls of the same node that both answered: a
 * node that was down in between keeps the role it had before, so a restart is
 * not a failover but a promotion while it was away still is.
 */
export class FailoverLog {
  private readonly roles = new Map<string, string>();
  private readonly list: FailoverEvent[] = [];
  private seq = 0;

  /** Role changes in this tick's samples, recorded; the new events are returned. */
  observe(at: number, samples: readonly NodeSample[]): FailoverEvent[] {
    const out: FailoverEvent[] = [];
    for (const s of samples) {
      if (!s.up || s.role === undefined) continue;
      const now = roleName(s.role);
      const before = this.roles.get(s.address);
      this.roles.set(s.address, now);
      if (before === undefined || before === now) continue;
      const e = this.add({
        at,
        address: s.address,
        oldRole: before,
        newRole: now,
        source: 'poll',
        message: `${s.address} went from ${before} to ${now}`,
      });
      if (e !== undefined) out.push(e);
    }
    return out;
  }

  /**
   * The sentinels name another master (+switch-master, or SENTINEL MASTER
   * answering another address than at the last discovery). Merged with a
   * promotion polling saw for the same node shortly before (returned again,
   * same id, now naming the previous master).
   */
  masterSwitched(at: number, master: string, previousMaster: string | undefined): FailoverEvent | undefined {
    return this.add({
      at,
      address: master,
      oldRole: 'replica',
      newRole: 'master',
      source: 'sentinel',
      ...(previousMaster === undefined ? {} : { previousMaster }),
      message: `failover: master is now ${master}` + (previousMaster === undefined ? '' : ` (was ${previousMaster})`),
    });
  }

  /** Forget a node no longer watched, so its return is not taken for a role change. */
  forget(address: string): void {
    this.roles.delete(address);
  }

  recent(): FailoverEvent[] {
    return this.list.map((e) => ({ ...e }));
  }

  private add(e: Omit<FailoverEvent, 'id'>): FailoverEvent | undefined {
    const twin = this.list.find((x) => x.address === e.address && x.newRole === e.newRole && Math.abs(x.at - e.at) <= SAME_FAILOVER_MS);
    if (twin !== undefined) {
      // One failover: keep the first sighting, but let Sentinel's word name the previous master
      // (sent again under the same id, so a watcher updates the row it has).
      if (twin.previousMaster !== undefined || e.previousMaster === undefined) return undefined;
      twin.previousMaster = e.previousMaster;
      twin.source = e.source;
      twin.message = e.message;
      return { ...twin };
    }
    this.seq += 1;
    const event: FailoverEvent = { id: `failover#${this.seq}`, ...e };
    this.list.push(event);
    if (this.list.length > MAX_FAILOVERS) this.list.shift();
    return { ...event };
  }
}
