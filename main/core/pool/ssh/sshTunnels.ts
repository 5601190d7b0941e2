import { SshTunnel } from './sshTunnel';
import type { SshRoute, TunnelLease } from './types';

interface Entry {
  tunnel: SshTunnel;
  leases: number;
}

export class SshTunnels {
  private readonly entries = new Map<string, Entry>();

  /** One SSH chain per distinct route (shared by leases); closed, with every forwarded port, when the last lease is released. */
  lease(route: SshRoute): TunnelLease {
    if (route.hops.length === 0) throw new Error('An SSH route needs at least one hop');
    const key = routeKey(route);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { tunnel: new SshTunnel(route), leases: 0 };
      this.entries.set(key, entry);
    }
    entry.leases += 1;
    const { tunnel } = entry;
    let released = false;
    const live = (): SshTunnel => {
      if (released) throw new Error('This SSH tunnel lease was released');
      return tunnel;
    };
    return {
      forward: (address) => live().forward(address),
      state: () => tunnel.state(),
      ready: () => live().ready(),
      release: () => {
        if (released) return;
        released = true;
        this.drop(key, tunnel);
      },
    };
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.tunnel.close()));
  }

  private drop(key: string, tunnel: SshTunnel): void {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.tunnel !== tunnel) return;
    entry.leases -= 1;
    if (entry.leases > 0) return;
    this.entries.delete(key);
    void tunnel.close();
  }
}

/** Routes are the same tunnel when every field is equal, whatever order the object's keys were written in. */
function routeKey(route: SshRoute): string {
  return JSON.stringify(route, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
