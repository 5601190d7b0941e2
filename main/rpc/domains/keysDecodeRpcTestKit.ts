import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type Name } from '../../../app/contract';
import type { Role } from '../../../app/define';
import { RpcClient } from '../../../app/rpcClient';
import { DecodeRunner } from '../../core/keys/decode/decodeRunner';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { keysDecodeHandlers } from './keys';

/** Tests only: keys.decode behind a real dispatcher and pool, a client per role. */
export function keysDecodeRpc(readOnly: StoredProfile[]): { as(role: Role): RpcClient; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'cb-keys-decode-'));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), readOnly });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const runner = new DecodeRunner();
  // Only keys.decode is under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const dispatcher = new Dispatcher({ ...unused, ...keysDecodeHandlers({ profiles, pool }, runner) } as Handlers, { streamIntervalMs: 10 });
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
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
