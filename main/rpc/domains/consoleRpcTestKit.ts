import type { Role } from '../../../app/define';
import type { RpcClient } from '../../../app/rpcClient';
import type { RunResult } from '../../../app/schemas/console';
import type { AuditEntry } from '../../core/audit/auditLog';
import { runInput, runner, useConsoleServer, type ConsoleRunner, type RunInput, type ServerOptions } from '../../core/console/consoleTestKit';
import { consoleServices, type ConsoleServices } from '../../core/console/run/consoleServices';
import type { StoredProfile } from '../../core/pool/types';
import type { Redis } from 'ioredis';
import type { RedisProcess } from '../../../testing/redis';
import { Dispatcher } from '../dispatcher';
import { consoleHandlers } from './console';
import { roleClients, domainRpcBase } from './domainRpcTestKit';

export { onlyReply } from '../../core/console/consoleTestKit';

/** Tests only: the console entries behind a real dispatcher, a client per role (users `ops-user`, `analyst-user`), the audit log. */
export interface ConsoleRpc extends ConsoleRunner {
  as(role: Role): RpcClient;
  history(role: Role, profileId?: string): Promise<string[]>;
  /** A cut reply's download, as the page would save it. */
  download(role: Role, downloadId: string): Promise<Buffer>;
  audit(): AuditEntry[];
  auditBytes(): Buffer;
  services: ConsoleServices;
  /** The data dir (history, reply files, audit log). */
  dir: string;
  close(): Promise<void>;
}

export function consoleRpc(builtin: StoredProfile[]): ConsoleRpc {
  const base = domainRpcBase('cb-console-rpc-', builtin);
  const { dir, profiles, pool, audit } = base;
  const services = consoleServices(dir);
  const dispatcher = new Dispatcher(base.handlers(consoleHandlers({ profiles, pool, audit, console: services })), { streamIntervalMs: 5 });
  const as = roleClients(dispatcher);
  const run = (role: Role, input: RunInput): Promise<RunResult> => as(role).invoke('console.run', runInput(input));
  return {
    as,
    ...runner(run),
    history: async (role, profileId = 'p') => (await as(role).invoke('console.history', { profileId })).lines,
    download: (role, downloadId) =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        as(role).subscribe(
          'console.download',
          { downloadId },
          {
            onEvents: (batch) => batch.forEach((e) => chunks.push(Buffer.from(e.chunk, 'base64'))),
            onEnd: (error) => (error === undefined ? resolve(Buffer.concat(chunks)) : reject(error)),
          },
        );
      }),
    audit: base.auditEntries,
    auditBytes: base.auditBytes,
    services,
    dir,
    async close() {
      await services.links.closeAll();
      services.history.flush();
      await base.close();
    },
  };
}

export interface ConsoleOnServer {
  redis(): RedisProcess;
  /** A plain client to the server, for arranging and checking from the side. */
  admin(): Redis;
  rpc(): ConsoleRpc;
}

/**
 * One standalone server and the console on it for a describe block: profile "p" (a config
 * profile of that server, with `over` applied), started in beforeAll, all closed in afterAll.
 */
export function useConsoleOnServer(opts: ServerOptions = {}): ConsoleOnServer {
  const { redis, admin, kit } = useConsoleServer(opts, consoleRpc);
  return { redis, admin, rpc: kit };
}
