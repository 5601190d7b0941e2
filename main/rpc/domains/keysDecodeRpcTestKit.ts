import type { Role } from '../../../app/define';
import { RpcClient } from '../../../app/rpcClient';
import { DecodeRunner } from '../../core/keys/decode/decodeRunner';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { createMemoryWirePair } from '../wireTestKit';
import { keysDecodeHandlers } from './keys';
import { domainRpcBase } from './domainRpcTestKit';

/** Tests only: keys.decode behind a real dispatcher and pool, a client per role. */
export function keysDecodeRpc(configProfiles: StoredProfile[]): { as(role: Role): RpcClient; close(): Promise<void> } {
  const base = domainRpcBase('cb-keys-decode-', configProfiles);
  const { profiles, pool } = base;
  const runner = new DecodeRunner();
  const dispatcher = new Dispatcher(base.handlers(keysDecodeHandlers({ profiles, pool }, runner)), { streamIntervalMs: 10 });
  const clients = new Map<Role, RpcClient>();
  return {
    as(role) {
      let c = clients.get(role);
      if (c === undefined) {
        const { server, client: end } = createMemoryWirePair();
        dispatcher.attach(server, { role });
        const client = new RpcClient((m) => end.send(m));
        end.onMessage((m) => client.receive(m));
        clients.set(role, (c = client));
      }
      return c;
    },
    async close() {
      await runner.close();
      await base.close();
    },
  };
}
