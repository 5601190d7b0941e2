import type { ClusterFacts, FailoverEvent, MetricsEvent, NodeSample } from '../../../app/schemas/metrics';
import type { PoolApi, TopologyKind } from '../pool/types';
import type { ProfileFacts } from './alertRules';
import { worstView } from './clusterInfo';
import { FailoverLog } from './failovers';
import type { ProfileDiscovery, SentinelRecord } from './profileDiscovery';

type TopologyExtras = Omit<Extract<MetricsEvent, { kind: 'topology' }>, 'kind' | 'nodes' | 'at'>;

const NOTICE = /^failover: master is now (.+)$/;

/**
 * What a profile's monitoring knows beyond each node's INFO: the topology
 * kind, a cluster's CLUSTER INFO view, a sentinel set's sentinels and master,
 * the last discovery error, and the failovers seen. Failovers are emitted the
 * moment they are seen and also handed to the next tick's alert evaluation.
 */
export class ProfileFactsTracker {
  mode: TopologyKind | undefined;
  private cluster: ClusterFacts | undefined;
  private sentinels: SentinelRecord[] | undefined;
  private sentinelMaster: string | undefined;
  private discoveryError: string | undefined;
  private readonly log = new FailoverLog();
  private pending: FailoverEvent[] = [];
  private lastNotice: string | undefined;
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly pool: PoolApi,
    private readonly connectionId: string,
    private readonly emit: (e: MetricsEvent) => void,
    /** Ask the poller to rediscover at its next tick. */
    private readonly rediscover: () => void = () => undefined,
  ) {}

  /**
   * Listen for the pool's "failover: master is now …" state (its sentinel
   * clients see a switch at once, before any poll could) and rediscover then.
   * A notice already there when watching starts is old news and not reported.
   */
  start(): void {
    if (this.unwatch !== undefined) return;
    this.lastNotice = this.pool.states().find((s) => s.profileId === this.connectionId)?.detail;
    this.unwatch = this.pool.onState((s) => {
      if (s.profileId !== this.connectionId || s.detail === undefined || s.detail === this.lastNotice) return;
      this.lastNotice = s.detail;
      // The notice names the master most sentinels named when the pool checked, but the
      // failover event is built from one place only: a discovery now (SENTINEL MASTER, with
      // the replicas and sentinels around it; see discovered()).
      if (NOTICE.test(s.detail)) this.rediscover();
    });
  }

  stop(): void {
    this.unwatch?.();
    this.unwatch = undefined;
  }

  discovered(d: ProfileDiscovery): void {
    this.mode = d.mode;
    this.discoveryError = undefined;
    this.sentinels = d.sentinels;
    // Polls go to each node directly; the pool's sentinel-mode client is what hears +switch-master
    // (see start()), so keep one open while watching. Its failure shows in the polls already.
    if (d.mode === 'sentinel') void this.pool.monitoring(this.connectionId).catch(() => undefined);
    if (d.master !== undefined) this.switched(Date.now(), d.master);
  }

  discoveryFailed(err: unknown): void {
    this.discoveryError = err instanceof Error ? err.message : String(err);
  }

  /** One tick: role changes between polls, and the cluster's worst CLUSTER INFO view. */
  tick(at: number, samples: readonly NodeSample[], clusterViews: ReadonlyMap<string, Record<string, string>>): ProfileFacts {
    for (const e of this.log.observe(at, samples)) this.publish(e);
    this.cluster = this.mode === 'cluster' ? worstView(clusterViews) : undefined;
    const failovers = this.pending;
    this.pending = [];
    return { cluster: this.cluster, failovers };
  }

  forget(address: string): void {
    this.log.forget(address);
  }

  failovers(): FailoverEvent[] {
    return this.log.recent();
  }

  extras(): TopologyExtras {
    return {
      ...(this.mode === undefined ? {} : { mode: this.mode }),
      ...(this.cluster === undefined ? {} : { cluster: this.cluster }),
      ...(this.sentinels === undefined ? {} : { sentinels: this.sentinels }),
      ...(this.discoveryError === undefined ? {} : { error: this.discoveryError }),
    };
  }

  /** The master the sentinels name; a change from the one known is a failover (first sighting is not). */
  private switched(at: number, master: string): void {
    const before = this.sentinelMaster;
    this.sentinelMaster = master;
    if (before === undefined || before === master) return;
    const e = this.log.masterSwitched(at, master, before);
    if (e !== undefined) this.publish(e);
  }

  private publish(e: FailoverEvent): void {
    this.pending.push(e);
    this.emit({ kind: 'failover', failover: e });
  }
}
