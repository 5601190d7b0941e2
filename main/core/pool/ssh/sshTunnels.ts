import type { SshRoute, TunnelLease } from './types';

export class SshTunnels {
  /** One SSH chain per distinct route (shared by leases); closed, with every forwarded port, when the last lease is released. */
  lease(route: SshRoute): TunnelLease {
    void route;
    throw new Error('not implemented yet');
  }

  async closeAll(): Promise<void> {
    await Promise.resolve();
  }
}
