import type { CallInput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import type { RpcClient } from '../../../app/rpcClient';
import type { ReplyNode, RunResult } from '../../../app/schemas/console';
import type { AuditEntry } from '../../core/audit/auditLog';
import { consoleServices, type ConsoleServices } from '../../core/console/run/consoleServices';
import type { StoredProfile } from '../../core/pool/types';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, startRedis, type RedisProcess, type SpawnRedisOptions } from '../../../testing/redis';
import { Dispatcher } from '../dispatcher';
import { consoleHandlers } from './console';
import { roleClients, domainRpcBase } from './domainRpcTestKit';

type RunInput = Partial<CallInput<'console.run'>> & { line: string };
type Done = Extract<RunResult, { status: 'done' }>;

/** Tests only: the console entries behind a real dispatcher, a client per role (users `ops-user`, `analyst-user`), the audit log. */
export interface ConsoleRpc {
  as(role: Role): RpcClient;
  /** console.run with a fresh runId; consoleId "console-1" and the profile "p" unless given. */
  run(role: Role, input: RunInput): Promise<RunResult>;
  /** run() that must come back done. */
  done(role: Role, input: RunInput): Promise<Done>;
  /** run(), then, when held, run again typing back what it asks. */
  confirmed(role: Role, input: RunInput): Promise<Done>;
  /** The rejection of a run (fails the test when it resolves). */
  refusal(role: Role, input: RunInput): Promise<AppError>;
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

let runs = 0;

export function consoleRpc(builtin: StoredProfile[]): ConsoleRpc {
  const base = domainRpcBase('cb-console-rpc-', builtin);
  const { dir, profiles, pool, audit } = base;
  const services = consoleServices(dir);
  const dispatcher = new Dispatcher(base.handlers(consoleHandlers({ profiles, pool, audit, console: services })), { streamIntervalMs: 5 });
  const as = roleClients(dispatcher);
  const run = (role: Role, input: RunInput): Promise<RunResult> =>
    as(role).invoke('console.run', { profileId: 'p', consoleId: 'console-1', runId: `run-${++runs}`, ...input } as CallInput<'console.run'>);
  const done = async (role: Role, input: RunInput): Promise<Done> => {
    const r = await run(role, input);
    if (r.status !== 'done') throw new Error(`${input.line} was ${r.status}: ${r.why}`);
    return r;
  };
  return {
    as,
    run,
    done,
    async confirmed(role, input) {
      const first = await run(role, input);
      return first.status === 'done' ? first : done(role, { ...input, confirm: first.confirmWith });
    },
    refusal: (role, input) =>
      run(role, input).then(
        (r) => {
          throw new Error(`${input.line} was not refused: ${JSON.stringify(r).slice(0, 300)}`);
        },
        (e: AppError) => e,
      ),
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

/** The one reply of a done run (a run on one node). */
export function onlyReply(r: Done): ReplyNode {
  if (r.replies.length !== 1) throw new Error(`expected one reply, got ${r.replies.length}`);
  return (r.replies[0] as Done['replies'][number]).reply;
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
export function useConsoleOnServer(
  opts: { server?: SpawnRedisOptions; profiles?: (redis: RedisProcess) => StoredProfile[]; arrange?: (admin: Redis) => Promise<unknown> } = {},
): ConsoleOnServer {
  let redis: RedisProcess | undefined;
  let admin: Redis | undefined;
  let rpc: ConsoleRpc | undefined;
  beforeAll(async () => {
    redis = await startRedis(opts.server);
    admin = await adminClient(redis, opts.server?.password === undefined ? {} : { password: opts.server.password });
    await opts.arrange?.(admin);
    rpc = consoleRpc(opts.profiles?.(redis) ?? [{ id: 'p', source: 'config', spec: specFor(redis) }]);
  });
  afterAll(async () => {
    await rpc?.close();
    await closeAdmins();
    await redis?.stop();
  });
  const got = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useConsoleOnServer(): only inside tests and hooks');
    return v;
  };
  return { redis: () => got(redis), admin: () => got(admin), rpc: () => got(rpc) };
}
