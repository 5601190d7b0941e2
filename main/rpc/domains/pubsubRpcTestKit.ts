import type { StreamEvent, StreamInput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { AuditEntry } from '../../core/audit/auditLog';
import { MetricsHub } from '../../core/metrics/metricsHub';
import type { StoredProfile } from '../../core/pool/types';
import { PubSubHub } from '../../core/pubsub/pubsubHub';
import { pubsubPlanner } from '../../core/pubsub/pubsubPlan';
import { Dispatcher } from '../dispatcher';
import { createMemoryWirePair, type MemoryClientEnd } from '../wireTestKit';
import { refusalEntry } from './auditTrail';
import { pubsubHandlers } from './pubsub';
import { roleClients, domainRpcBase } from './domainRpcTestKit';

export type PubSubEvent = StreamEvent<'pubsub.subscribe'>;

/** One subscription as the page sees it: every event, and how it ended. */
export interface Watch {
  events: PubSubEvent[];
  ended: boolean;
  error: AppError | undefined;
  of<K extends PubSubEvent['kind']>(kind: K): Extract<PubSubEvent, { kind: K }>[];
  /** Every planned node said `live`. */
  live(): boolean;
  stop(): void;
}

/** Tests only: the Pub/Sub entries behind a real dispatcher, a client per role, the hub and the audit log. */
export interface PubSubRpc {
  as(role: Role): RpcClient;
  watch(role: Role, input: StreamInput<'pubsub.subscribe'>, client?: RpcClient): Watch;
  /** A client of its own on a wire whose congestion the test sets. */
  congestible(role: Role): { client: RpcClient; wire: MemoryClientEnd };
  hub: PubSubHub;
  audit(): AuditEntry[];
  close(): Promise<void>;
}

export function pubsubRpc(configProfiles: StoredProfile[]): PubSubRpc {
  const base = domainRpcBase('cb-pubsub-rpc-', configProfiles);
  const { profiles, pool, audit } = base;
  const metrics = new MetricsHub({ pool });
  const hub = new PubSubHub({ plan: pubsubPlanner({ profile: (id) => profiles.get(id), pool }) });
  const handlers = base.handlers(pubsubHandlers({ profiles, pool, metrics, pubsub: hub, audit }));
  const dispatcher = new Dispatcher(handlers, { streamIntervalMs: 10, onRefused: (r) => audit.append(refusalEntry(r)) });
  const as = roleClients(dispatcher);
  return {
    as,
    hub,
    watch(role, input, client = as(role)) {
      const w: Watch = {
        events: [],
        ended: false,
        error: undefined,
        of: <K extends PubSubEvent['kind']>(kind: K) => w.events.filter((e): e is Extract<PubSubEvent, { kind: K }> => e.kind === kind),
        live: () => {
          const plan = w.of('plan')[0];
          if (plan === undefined) return false;
          return plan.nodes.every(
            (n) =>
              w
                .of('state')
                .filter((s) => s.address === n.address)
                .at(-1)?.state === 'live',
          );
        },
        stop: () => undefined,
      };
      w.stop = client.subscribe('pubsub.subscribe', input, {
        onEvents: (batch) => w.events.push(...batch),
        onEnd: (error) => {
          w.ended = true;
          w.error = error;
        },
      });
      return w;
    },
    congestible(role) {
      const { server, client: wire } = createMemoryWirePair();
      dispatcher.attach(server, { role, user: `${role}-slow` });
      const client = new RpcClient((m) => wire.send(m));
      wire.onMessage((m) => client.receive(m));
      return { client, wire };
    },
    audit: base.auditEntries,
    async close() {
      hub.shutdown();
      await metrics.shutdown();
      await base.close();
    },
  };
}

export const b64 = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s) : s).toString('base64');
