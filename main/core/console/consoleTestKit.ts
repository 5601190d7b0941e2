import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { contract, type CallInput, type CallOutput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import { ProfileId } from '../../../app/schemas/common';
import type { ReplyNode, RunResult } from '../../../app/schemas/console';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, startRedis, type RedisProcess, type SpawnRedisOptions } from '../../../testing/redis';
import { noSecretBox } from '../pool/noSecretBox';
import { Pool } from '../pool/pool';
import { ProfileStore } from '../pool/profileStore';
import type { StoredProfile } from '../pool/types';
import { downloadReply } from './reply/downloadReply';
import { CatalogCache } from './run/catalogCache';
import type { ConsoleOutcome } from './run/consoleAudit';
import { ConsoleRuns } from './run/consoleRuns';
import { consoleServices, type ConsoleServices } from './run/consoleServices';
import { ConsoleTopology } from './run/consoleTopology';
import { parseLine } from './run/parseLine';
import { runLine } from './run/runLine';

export type RunInput = Partial<CallInput<'console.run'>> & { line: string };
export type Done = Extract<RunResult, { status: 'done' }>;

/** The calls every console kit offers over its own `run` (this core one, and the RPC one over a dispatcher). */
export interface ConsoleRunner {
  /** console.run with a fresh runId; consoleId "console-1" and the profile "p" unless given. */
  run(role: Role, input: RunInput): Promise<RunResult>;
  /** run() that must come back done. */
  done(role: Role, input: RunInput): Promise<Done>;
  /** run(), then, when held, run again typing back what it asks. */
  confirmed(role: Role, input: RunInput): Promise<Done>;
  /** The rejection of a run (fails the test when it resolves). */
  refusal(role: Role, input: RunInput): Promise<AppError>;
}

let runs = 0;

/** A fresh run id each call, and the defaults every console test uses (profile "p", console "console-1"). */
export function runInput(input: RunInput): CallInput<'console.run'> {
  return { profileId: 'p', consoleId: 'console-1', runId: `run-${++runs}`, ...input } as CallInput<'console.run'>;
}

/** done, confirmed and refusal over a kit's own run. */
export function runner(run: ConsoleRunner['run']): ConsoleRunner {
  const done = async (role: Role, input: RunInput): Promise<Done> => {
    const r = await run(role, input);
    if (r.status !== 'done') throw new Error(`${input.line} was ${r.status}: ${r.why}`);
    return r;
  };
  return {
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
  };
}

/** One console audit entry as the core hands it out (the RPC layer writes these to the audit log). */
export interface ConsoleAuditEntry {
  user: string;
  outcome: ConsoleOutcome;
  target: string;
  detail: string;
}

/** Tests only: the console's core (runLine, history, reply downloads) over a pool, users `ops-user` and `analyst-user`. */
export interface ConsoleCore extends ConsoleRunner {
  /** console.catalog as `role` reaches the profile. */
  catalog(role: Role, profileId?: string): Promise<CallOutput<'console.catalog'>>;
  /** console.targets as `role` reaches the profile. */
  targets(role: Role, profileId?: string): Promise<CallOutput<'console.targets'>>;
  history(role: Role, profileId?: string): string[];
  /** A cut reply's download, as the page would save it. */
  download(role: Role, downloadId: string): Promise<Buffer>;
  audit(): ConsoleAuditEntry[];
  services: ConsoleServices;
  /** The data dir (history, reply files). */
  dir: string;
  close(): Promise<void>;
}

export function consoleCore(builtin: StoredProfile[]): ConsoleCore {
  const dir = mkdtempSync(join(tmpdir(), 'cb-console-core-'));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), definitionLocked: builtin });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const services = consoleServices(dir);
  const deps = { pool, console: services, catalogs: new CatalogCache(pool), topology: new ConsoleTopology(pool), runs: new ConsoleRuns() };
  const entries: ConsoleAuditEntry[] = [];
  const user = (role: Role): string => `${role}-user`;
  /** The connection id and profile `role` reaches `profileId` with (an analyst's carries the analyst credentials). */
  const reach = (role: Role, profileId: string) => {
    const connectionId = profiles.forRole(ProfileId.parse(profileId), role);
    const profile = profiles.get(connectionId);
    if (profile === undefined) throw new Error(`no profile ${profileId}`);
    return { connectionId, profile };
  };
  const run = async (role: Role, asked: RunInput): Promise<RunResult> => {
    // Parsed as the dispatcher parses it: the contract's defaults filled in.
    const input = contract['console.run'].input.parse(runInput(asked));
    const { connectionId, profile } = reach(role, input.profileId);
    return runLine(deps, input, parseLine(input.line), {
      user: user(role),
      role,
      connectionId,
      profile,
      signal: new AbortController().signal,
      audit: (outcome, target, detail) => entries.push({ user: user(role), outcome, target, detail }),
    });
  };
  return {
    ...runner(run),
    catalog: (role, profileId = 'p') => deps.catalogs.get(reach(role, profileId).connectionId),
    targets: (role, profileId = 'p') => {
      const { connectionId, profile } = reach(role, profileId);
      return deps.topology.targets(connectionId, profile.spec);
    },
    history: (role, profileId = 'p') => services.history.list(user(role), profileId),
    async download(role, downloadId) {
      const chunks: Buffer[] = [];
      const sink = { backlog: 0, signal: new AbortController().signal, push: (e: { chunk: string }) => chunks.push(Buffer.from(e.chunk, 'base64')) };
      await downloadReply(services.files, downloadId, user(role), sink);
      return Buffer.concat(chunks);
    },
    audit: () => entries,
    services,
    dir,
    async close() {
      await services.links.closeAll();
      services.history.flush();
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The one reply of a done run (a run on one node). */
export function onlyReply(r: Done): ReplyNode {
  if (r.replies.length !== 1) throw new Error(`expected one reply, got ${r.replies.length}`);
  return (r.replies[0] as Done['replies'][number]).reply;
}

export interface ServerOptions {
  server?: SpawnRedisOptions;
  /** The profiles, "p" (a config profile of the server) unless given. */
  profiles?: (redis: RedisProcess) => StoredProfile[];
  arrange?: (admin: Redis) => Promise<unknown>;
}

export interface ConsoleServer<K> {
  redis(): RedisProcess;
  /** A plain client to the server, for arranging and checking from the side. */
  admin(): Redis;
  kit(): K;
}

/**
 * One standalone server and a console kit on it for a describe block (`make` builds the kit
 * over the profiles): started in beforeAll, all closed in afterAll.
 */
export function useConsoleServer<K extends { close(): Promise<void> }>(opts: ServerOptions, make: (profiles: StoredProfile[]) => K): ConsoleServer<K> {
  let redis: RedisProcess | undefined;
  let admin: Redis | undefined;
  let kit: K | undefined;
  beforeAll(async () => {
    redis = await startRedis(opts.server);
    admin = await adminClient(redis, opts.server?.password === undefined ? {} : { password: opts.server.password });
    await opts.arrange?.(admin);
    kit = make(opts.profiles?.(redis) ?? [{ id: 'p', source: 'config', spec: specFor(redis) }]);
  });
  afterAll(async () => {
    await kit?.close();
    await closeAdmins();
    await redis?.stop();
  });
  const got = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useConsoleServer(): only inside tests and hooks');
    return v;
  };
  return { redis: () => got(redis), admin: () => got(admin), kit: () => got(kit) };
}

/** The console's core on one standalone server for a describe block. */
export function useConsoleCore(opts: ServerOptions = {}): { redis(): RedisProcess; admin(): Redis; core(): ConsoleCore } {
  const { redis, admin, kit } = useConsoleServer(opts, consoleCore);
  return { redis, admin, core: kit };
}
