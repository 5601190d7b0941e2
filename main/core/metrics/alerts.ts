import type { Alert, NodeSample } from '../../../app/schemas/metrics';
import { alertKey, judgeTick, type AlertThresholds, type Condition, type ProfileFacts } from './alertRules';
import type { AlertKindName, TopologyEntry } from './types';

export const MAX_RESOLVED = 100;
/** rejected_connections, evictions, failover and node_restarted are about events: they clear after this long without one. */
export const DEFAULT_QUIET_MS = 60_000;

/** Kinds raised by a counter going up: each increase refreshes them, quiet time resolves them. */
const EDGE_KINDS = new Set<AlertKindName>(['rejected_connections', 'evictions', 'failover', 'node_restarted']);

interface Active {
  alert: Alert;
  lastFired: number;
}

export interface AlertEngineOptions {
  thresholds: AlertThresholds;
  maxResolved?: number;
  quietMs?: number;
}

/**
 * Raises and resolves alerts from one tick of samples at a time. An alert's id
 * is stable for as long as its (kind, address) stays active; once resolved it
 * moves to a bounded list of recent ones and a new raise gets a new id.
 */
export class AlertEngine {
  private readonly activeByKey = new Map<string, Active>();
  private readonly resolvedList: Alert[] = [];
  private readonly lastSample = new Map<string, NodeSample>();
  private thresholds: AlertThresholds;
  private seq = 0;
  private readonly maxResolved: number;
  private readonly quietMs: number;

  constructor(opts: AlertEngineOptions) {
    this.thresholds = { ...opts.thresholds };
    this.maxResolved = opts.maxResolved ?? MAX_RESOLVED;
    this.quietMs = opts.quietMs ?? DEFAULT_QUIET_MS;
  }

  setThresholds(t: AlertThresholds): void {
    this.thresholds = { ...t };
  }

  /** Feed one tick; returns the alerts raised and resolved by it (copies), raises first. */
  evaluate(at: number, samples: NodeSample[], topology: TopologyEntry[], facts: ProfileFacts = {}): Alert[] {
    const verdict = judgeTick(samples, this.lastSample, topology, this.thresholds, facts);
    for (const s of samples) this.lastSample.set(s.address, s);
    const raised: Alert[] = [];
    for (const [key, c] of verdict.firing) {
      const current = this.activeByKey.get(key);
      if (current !== undefined) {
        current.lastFired = at;
        current.alert.message = c.message;
        continue;
      }
      const alert = this.newAlert(c, at);
      this.activeByKey.set(key, { alert, lastFired: at });
      raised.push({ ...alert });
    }
    const resolved: Alert[] = [];
    for (const [key, a] of this.activeByKey) {
      if (verdict.firing.has(key) || !verdict.judged.has(key)) continue;
      if (EDGE_KINDS.has(a.alert.kind) && at - a.lastFired < this.quietMs) continue;
      resolved.push(this.resolve(key, a, at));
    }
    return [...raised, ...resolved];
  }

  /** Resolve every alert of a node that is no longer watched. */
  forget(address: string, at: number): Alert[] {
    this.lastSample.delete(address);
    const out: Alert[] = [];
    for (const [key, a] of this.activeByKey) if (a.alert.address === address) out.push(this.resolve(key, a, at));
    return out;
  }

  active(): Alert[] {
    return [...this.activeByKey.values()].map((a) => ({ ...a.alert }));
  }

  /** Recently resolved alerts, newest first. */
  resolved(): Alert[] {
    return this.resolvedList.map((a) => ({ ...a })).reverse();
  }

  private newAlert(c: Condition, at: number): Alert {
    this.seq += 1;
    return {
      id: `${alertKey(c.kind, c.address)}#${this.seq}`,
      kind: c.kind,
      severity: c.severity,
      address: c.address,
      message: c.message,
      since: at,
    };
  }

  private resolve(key: string, a: Active, at: number): Alert {
    this.activeByKey.delete(key);
    const done: Alert = { ...a.alert, resolvedAt: at };
    this.resolvedList.push(done);
    if (this.resolvedList.length > this.maxResolved) this.resolvedList.shift();
    return { ...done };
  }
}
