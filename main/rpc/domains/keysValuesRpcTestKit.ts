import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { DownloadEvent } from '../../../app/schemas/keys';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { createMemoryWirePair, type MemoryClientEnd } from '../wireTestKit';
import { keysValuesHandlers } from './keys';
import { domainRpcBase } from './domainRpcTestKit';

/** Tests only: the key-value handlers behind a real dispatcher, one in-memory client per role. */
export interface KeysValuesRpc {
  as(role: Role): RpcClient;
  /** The client end of a role's wire (to make its transport congested). */
  wire(role: Role): MemoryClientEnd;
  close(): Promise<void>;
}

export function keysValuesRpc(configProfiles: StoredProfile[]): KeysValuesRpc {
  const base = domainRpcBase('cb-keys-values-rpc-', configProfiles);
  const { profiles, pool } = base;
  // A queue of 4 events (not 1,000): a download that did not wait for the transport would drop chunks here at once.
  const dispatcher = new Dispatcher(base.handlers(keysValuesHandlers({ profiles, pool })), { streamIntervalMs: 10, streamCapacity: 4, log: () => undefined });
  const clients = new Map<Role, { client: RpcClient; end: MemoryClientEnd }>();
  for (const role of ['analyst', 'ops'] as const) {
    const { server, client: end } = createMemoryWirePair();
    dispatcher.attach(server, { role, user: role });
    const client = new RpcClient((m) => end.send(m));
    end.onMessage((m) => client.receive(m));
    clients.set(role, { client, end });
  }
  const get = (role: Role) => {
    const c = clients.get(role);
    if (c === undefined) throw new Error(`no client for ${role}`);
    return c;
  };
  return {
    as: (role) => get(role).client,
    wire: (role) => get(role).end,
    async close() {
      for (const { end } of clients.values()) end.close();
      await base.close();
    },
  };
}

export interface Download {
  bytes: Buffer;
  events: DownloadEvent[];
  /** The running drop count the last batch carried. */
  dropped: number;
  error: AppError | undefined;
}

/** Subscribes to keys.download and resolves with the bytes reassembled once the stream ends. */
export function download(
  client: RpcClient,
  input: { profileId: string; key: string; db?: number },
  onBatch?: (events: DownloadEvent[]) => void,
): Promise<Download> {
  return new Promise((resolve) => {
    const events: DownloadEvent[] = [];
    let dropped = 0;
    client.subscribe('keys.download', input, {
      onEvents: (batch, d) => {
        events.push(...batch);
        dropped = d;
        onBatch?.(batch);
      },
      onEnd: (error) => resolve({ bytes: Buffer.concat(events.map((e) => Buffer.from(e.chunk, 'base64'))), events, dropped, error }),
    });
  });
}
