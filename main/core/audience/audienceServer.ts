import { AppError } from '../../../app/errors';
import type { AudienceLayout } from '../../../app/schemas/audience';
import { slotOf } from '../resp/slot';
import { currentMasterSpec } from '../pool/sentinels';
import { masterServing, requireDbZero } from '../pool/topology';
import type { PoolApi, ProfileSpec } from '../pool/types';

/** What a cluster user is told when the audience keys cannot share one slot. */
export const SPREAD_OVER_SLOTS = 'the audience keys are spread over several slots: set a hash tag in the layout so they share one, e.g. aud';

/** The hash tag demo data gets on a cluster when the layout names none. */
export const CLUSTER_DEMO_TAG = 'aud';

/**
 * The one server an audience job runs on, as a plain spec (no topology).
 * BITOP, SINTERSTORE, ZUNIONSTORE and a script's keys must all live in one
 * slot on a cluster (else CROSSSLOT), so a cluster needs the layout's hash tag,
 * and the job runs on the master serving that tag's slot, all keys local. A
 * sentinel profile runs on the master the sentinels name now.
 */
export async function audienceServer(
  pool: Pick<PoolApi, 'masters'>,
  connectionId: string,
  spec: ProfileSpec,
  layout: Pick<AudienceLayout, 'hashTag'>,
  db: number,
): Promise<ProfileSpec> {
  if (spec.topology?.kind !== 'cluster') return currentMasterSpec(spec);
  if (layout.hashTag === undefined) {
    throw new AppError('VALIDATION', `"${spec.name}" is a Redis Cluster and ${SPREAD_OVER_SLOTS}`, 'layout.hashTag');
  }
  requireDbZero(db);
  // The keys are `{tag}:…`: Redis hashes only the tag, so they all share this slot.
  const slot = slotOf(`{${layout.hashTag}}:`);
  const owner = masterServing(await pool.masters(connectionId), slot);
  if (owner === undefined) {
    throw new AppError(
      'UNREACHABLE',
      `No healthy master of "${spec.name}" serves hash slot ${slot} (hash tag {${layout.hashTag}}): check the cluster's slot coverage`,
    );
  }
  return owner.spec;
}

/** A Redis error reply, explained when it is CROSSSLOT (keys of one command in several slots). */
export function explainReply(message: string): string {
  return message.includes('CROSSSLOT') ? `${SPREAD_OVER_SLOTS} (Redis said: ${message})` : message;
}

/** Demo data on a cluster must share one slot: the layout's hash tag, or `aud` when it names none. */
export function demoLayoutFor<L extends Pick<AudienceLayout, 'hashTag'>>(spec: ProfileSpec, layout: L): L {
  if (spec.topology?.kind !== 'cluster' || layout.hashTag !== undefined) return layout;
  return { ...layout, hashTag: CLUSTER_DEMO_TAG };
}

/**
 * Servers looked up per (profile, topology, hash tag, DB), at most `max` of them:
 * the oldest lookup goes first. A Map keeps insertion order, so that is its first key.
 */
export class ServerCache {
  private readonly servers = new Map<string, ProfileSpec>();

  constructor(private readonly max: number) {}

  get(key: string): ProfileSpec | undefined {
    return this.servers.get(key);
  }

  remember(key: string, server: ProfileSpec): void {
    this.servers.delete(key);
    this.servers.set(key, server);
    if (this.servers.size > this.max) this.servers.delete(this.servers.keys().next().value as string);
  }
}

/**
 * An error that says the server looked up is no longer the one to ask: the slot
 * moved (MOVED), the node is a replica now (READONLY) or the cluster is down for
 * a moment, or the node went away.
 */
export function topologyChanged(e: unknown): boolean {
  if (e instanceof AppError && (e.code === 'UNREACHABLE' || e.code === 'DISCONNECTED')) return true;
  const message = e instanceof Error ? e.message : String(e);
  return /\b(MOVED|ASK|READONLY|CLUSTERDOWN|TRYAGAIN)\b/.test(message);
}
