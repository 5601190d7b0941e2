import type { StoredProfile, SecretBox } from './core/pool/types';
import { Pool } from './core/pool/pool';
import { ProfileStore } from './core/pool/profileStore';
import { toAppError } from './core/pool/redisErrors';
import { loadServerConfig } from './core/pool/serverConfig';
import { spawnRedisServer, type RedisProcess } from './core/redisProcess/spawnRedisServer';
import { ProfileDraft } from '../app/schemas/connections';
import { Dispatcher } from './rpc/dispatcher';
import { refusalEntry } from './rpc/domains/auditTrail';
import { createHandlers } from './rpc/domains';
import { userKey, type Session } from './rpc/session';
import type { Wire } from './rpc/wire';
import { VERSION } from './version';
import { AppError } from '../app/errors';
import { roleAllows } from '../app/define';
import type { LoadFile, StartupCleanup } from '../app/schemas/bulk';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileRegistry } from './core/bulk/fileRegistry';
import { cleanStartupLeftovers } from './startupLeftovers';
import { AuditLog } from './core/audit/auditLog';
import { CallRateLimit } from './rpc/callRateLimit';
import { MetricsHub } from './core/metrics/metricsHub';
import { MonitorHub } from './core/monitor/monitorHub';
import { monitorTargets } from './core/monitor/monitorTargets';
import { PubSubHub } from './core/pubsub/pubsubHub';
import { pubsubPlanner } from './core/pubsub/pubsubPlan';
import { cancelAllJobs, cancelOwnedJobs, createJobs } from './core/jobKinds';
import type { JobOwner } from './core/jobs/jobOwner';
import type { ExportDownload } from './core/export';
import { AudienceQueryLinks } from './core/audience/queryLinks';
import { consoleServices } from './core/console/run/consoleServices';
import { embeddedDemoStartLine, seedEmbeddedDemo } from './core/audience/demo/embeddedDemo';

export interface RuntimeOptions {
  dataDir: string;
  secretBox: SecretBox;
  /** A server to use instead of an embedded one (read-only profile "env"). */
  redisUrl?: string;
  /** Web build: profiles from a JSON config file. */
  configFile?: string;
  /** Start a private redis-server when no REDIS_URL and no config file is given. */
  embedded?: boolean;
  /** Web build: a server-side folder whose files can be loaded. */
  importDir?: string;
  /** Web build: largest accepted upload (default 2 GiB). */
  uploadLimitBytes?: number;
  /** Desktop: the main-process file dialog. */
  pickFile?: () => Promise<string | null>;
  /** Desktop: the main-process save dialog (exports), suggesting a file name. */
  pickSaveFile?: (fileName: string) => Promise<string | null>;
  /** Web build: calls and subscriptions per user per second (burst: 4 s worth). */
  callsPerSecond?: number;
  /**
   * Record every connectable profile's Overview history while the process runs, so a page
   * that opens later finds it; stop for a profile nobody watched for `idleMinutes`.
   */
  recordHistory?: { idleMinutes: number | 'never' };
}

export interface Runtime {
  attach(wire: Wire, session: Session): () => void;
  /**
   * Cancels every running job and resolves once each has cleaned up and reported (a load:
   * staging discarded, save config restored, journal removed), each kind waiting at most
   * 10 s. The pool stays open, so the pages still connected see the jobs end.
   */
  stopJobs(): Promise<void>;
  /**
   * Cancels every running job whose starter `refuse` gives a reason against (their user removed,
   * or demoted below the role the job needed), each with an audit entry saying why.
   */
  revokeJobs(refuse: (owner: JobOwner) => string | undefined): void;
  /** stopJobs (again: a job started since is cancelled too), then closes the pool and the embedded server. */
  close(): Promise<void>;
  readonly version: string;
  /** Profiles the runtime registered itself (embedded, REDIS_URL), for start-up messages. */
  readonly builtinProfiles: StoredProfile[];
  readonly embedded: RedisProcess | null;
  /** Streams an upload into the load folder, for sessions allowed to load. */
  upload(session: Session, name: string, body: Readable): Promise<LoadFile>;
  /** An export's download (export.start), for the session that started it. */
  download(session: Session, jobId: string): ExportDownload;
}

function envProfile(url: string): StoredProfile {
  const parsed = ProfileDraft.safeParse({ name: 'REDIS_URL', url });
  if (!parsed.success) {
    throw new AppError('VALIDATION', `REDIS_URL: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'REDIS_URL');
  }
  const spec = parsed.data;
  spec.name = `REDIS_URL (${spec.host}:${spec.port})`;
  return { id: 'env', source: 'config', spec };
}

/** Wires core services to the dispatcher. Both shells (web server, Electron) start here. */
export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const builtin: StoredProfile[] = [];
  let embedded: RedisProcess | null = null;

  if (opts.configFile) builtin.push(...loadServerConfig(opts.configFile));
  if (opts.redisUrl) builtin.push(envProfile(opts.redisUrl));
  if (opts.embedded && !opts.redisUrl && !opts.configFile) {
    embedded = await spawnRedisServer();
    builtin.push({
      id: 'embedded',
      source: 'embedded',
      spec: {
        name: 'Local (embedded)',
        host: embedded.host,
        port: embedded.port,
        db: 0,
        tls: { enabled: false, rejectUnauthorized: true },
      },
    });
  }

  const profiles = new ProfileStore({ dataDir: opts.dataDir, secretBox: opts.secretBox, definitionLocked: builtin });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.connectable() });
  const files = new FileRegistry({
    uploadDir: join(opts.dataDir, 'uploads'),
    uploadLimitBytes: opts.uploadLimitBytes ?? 2 * 1024 ** 3,
    log: (m) => console.warn(m),
    ...(opts.importDir ? { importDir: opts.importDir } : {}),
  });
  const jobs = createJobs({ audienceHistoryFile: join(opts.dataDir, 'audience-history.json') });
  const startupCleanups: StartupCleanup[] = [];
  const bulk = {
    files,
    journalDir: join(opts.dataDir, 'journal'),
    leftovers: () => startupCleanups,
    ...(opts.pickFile ? { pickFile: opts.pickFile } : {}),
  };
  const record = opts.recordHistory;
  const metrics = new MetricsHub({
    pool,
    ...(record === undefined
      ? {}
      : {
          record: {
            profiles: () => profiles.connectable().map((p) => p.id),
            ...(record.idleMinutes === 'never' ? {} : { idleMs: record.idleMinutes * 60_000 }),
          },
        }),
  });
  const audience = { queries: new AudienceQueryLinks() };
  const consoles = consoleServices(opts.dataDir);
  // Our own private server only: the Audience trials page has data to try at once.
  const seeding = new AbortController();
  const embeddedSpec = builtin.find((p) => p.source === 'embedded')?.spec;
  if (embeddedSpec !== undefined) console.log(embeddedDemoStartLine(embeddedSpec));
  const seeded = embeddedSpec === undefined ? Promise.resolve() : seedEmbeddedDemo(embeddedSpec, seeding.signal).then((line) => console.log(line));
  const audit = new AuditLog(join(opts.dataDir, 'audit.log'));
  // A load that died left a journal: automatic saves switched off, a staging DB stamped. Put both right now.
  const restoring = cleanStartupLeftovers(
    bulk.journalDir,
    () => profiles.list(),
    pool,
    audit,
    (c) => startupCleanups.push(c),
  );
  const monitor = new MonitorHub({ resolve: monitorTargets({ profile: (id) => profiles.get(id), metrics, pool }) });
  const pubsub = new PubSubHub({ plan: pubsubPlanner({ profile: (id) => profiles.get(id), pool }) });
  const dispatcher = new Dispatcher(
    createHandlers({
      version: VERSION,
      profiles,
      pool,
      bulk,
      metrics,
      jobs,
      monitor,
      pubsub,
      audit,
      audience,
      console: consoles,
      ...(opts.pickSaveFile ? { pickSaveFile: opts.pickSaveFile } : {}),
    }),
    {
      mapError: (e) => toAppError(e),
      onRefused: (r) => audit.append(refusalEntry(r)),
      ...(opts.callsPerSecond === undefined ? {} : { rateLimit: new CallRateLimit({ perSecond: opts.callsPerSecond, burst: opts.callsPerSecond * 4 }) }),
    },
  );

  // Cancelled loads discard their staging and restore the save config before the pool goes;
  // cancelled samples release their connection; cancelled trials remove their scratch keys.
  const stopJobs = async () => {
    seeding.abort();
    await Promise.all([cancelAllJobs(jobs), seeded]);
  };
  let closing: Promise<void> | null = null;
  return {
    version: VERSION,
    builtinProfiles: builtin,
    embedded,
    attach: (wire, session) => dispatcher.attach(wire, session),
    stopJobs,
    revokeJobs(refuse) {
      for (const c of cancelOwnedJobs(jobs, refuse)) {
        audit.append({
          user: c.owner.user,
          action: 'job.revoked',
          target: c.target,
          outcome: 'cancelled',
          detail: `${c.kind} job ${c.jobId} cancelled: ${c.reason}`,
        });
      }
    },
    upload(session, name, body) {
      // Same rule as bulk.start: loading is an ops job.
      if (session.role === null) return Promise.reject(new AppError('UNAUTHENTICATED', 'Sign in first'));
      if (!roleAllows(session.role, 'ops')) {
        return Promise.reject(new AppError('FORBIDDEN', 'Uploading files for a bulk load needs the ops role'));
      }
      return files.saveUpload(name, body);
    },
    download(session, jobId) {
      if (session.role === null) throw new AppError('UNAUTHENTICATED', 'Sign in first');
      return jobs.export.claim(jobId, userKey(session));
    },
    close() {
      closing ??= (async () => {
        await restoring;
        await Promise.all([stopJobs(), audience.queries.closeAll(), consoles.links.closeAll()]);
        consoles.history.flush();
        monitor.shutdown();
        pubsub.shutdown();
        await metrics.shutdown();
        await pool.shutdown();
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
