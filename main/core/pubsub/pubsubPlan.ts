import { AppError } from '../../../app/errors';
import type { MasterNode, PoolApi, StoredProfile } from '../pool/types';
import { openRawConnection } from '../resp/rawConnection';
import { keySlot } from '../resp/slot';
import type { NodePlan, PlanHint, PubSubNames } from './pubsubHub';
import { namesText } from './subscriberNode';

/** Our subscriber connections show in CLIENT LIST as `cacheboard:pubsub:<connection id>`. */
export const PUBSUB_CONNECTION_PREFIX = 'cacheboard:pubsub:';

/** The master serving `slot` (cluster masters carry their slot ranges). */
export function ownerOf(masters: readonly MasterNode[], slot: number): MasterNode | undefined {
  return masters.find((m) => (m.slots ?? []).some(([a, b]) => slot >= a && slot <= b));
}

/** The node classic channels and patterns go to: a cluster forwards every PUBLISH to every node, so one hears them all. */
export function firstMaster(masters: readonly MasterNode[]): MasterNode {
  const sorted = [...masters].sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }));
  const first = sorted[0];
  if (first === undefined) throw new AppError('UNREACHABLE', 'No master of this profile could be reached.');
  return first;
}

/**
 * Where a viewer's names are subscribed, from the profile's own servers (never an
 * address the page sent): on a cluster, channels and patterns on one master and each
 * shard channel on the master that owns its slot (SSUBSCRIBE elsewhere is MOVED;
 * asked again when a slot moved or a master was lost);
 * otherwise everything on the server (a sentinel profile's current master, asked
 * afresh at each reconnect).
 */
export function pubsubPlanner(deps: {
  profile(connectionId: string): StoredProfile | undefined;
  pool: Pick<PoolApi, 'masters'>;
}): (connectionId: string, names: PubSubNames, hint?: PlanHint) => Promise<NodePlan[]> {
  return async (connectionId, names, hint = {}) => {
    const profile = deps.profile(connectionId);
    if (profile === undefined) throw new AppError('NOT_FOUND', `No connection profile with id "${connectionId}"`, 'profileId');
    const masters = await deps.pool.masters(connectionId);
    const cluster = profile.spec.topology?.kind === 'cluster';
    const name = `${PUBSUB_CONNECTION_PREFIX}${connectionId}`;
    const plans = new Map<string, NodePlan>();
    const planAt = (m: MasterNode): NodePlan => {
      let p = plans.get(m.address);
      if (p === undefined) {
        const spec = cluster ? m.spec : profile.spec;
        p = { address: m.address, open: () => openRawConnection(spec, spec.db, { name }), channels: [], patterns: [], shardChannels: [] };
        plans.set(m.address, p);
      }
      return p;
    };
    if (names.channels.length + names.patterns.length > 0) {
      // Re-planned: where they are while that is still a master; else any other (each hears them all), not one that was lost.
      const others = masters.filter((m) => !(hint.avoid ?? []).includes(m.address));
      const kept = others.find((m) => m.address === hint.keep);
      const p = planAt(kept ?? firstMaster(others.length > 0 ? others : masters));
      p.channels.push(...names.channels);
      p.patterns.push(...names.patterns);
    }
    for (const channel of names.shardChannels) {
      const slot = keySlot(channel);
      const owner = cluster ? ownerOf(masters, slot) : firstMaster(masters);
      if (owner === undefined) {
        throw new AppError('UNREACHABLE', `No reachable master serves slot ${slot} of shard channel ${namesText([channel])}.`, 'shardChannels');
      }
      planAt(owner).shardChannels.push({ name: channel, slot });
    }
    return [...plans.values()];
  };
}
