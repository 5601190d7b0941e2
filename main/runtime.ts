import type { StoredProfile, SecretBox } from './core/pool/types';
import { Pool } from './core/pool/pool';
import { ProfileStore } from './core/pool/profileStore';
import { toAppError } from './core/pool/redisErrors';
import { loadServerConfig } from './core/pool/serverConfig';
import { spawnRedisServer, type RedisProcess } from './core/redisProcess/spawnRedisServer';
import { ProfileDraft } from '../app/schemas/connections';
import { Dispatcher } from './rpc/dispatcher';
import { createHandlers } from './rpc/domains';
import type { Session } from './rpc/session';
import type { Wire } from './rpc/wire';
import { VERSION } from './version';
import { AppError } from '../app/errors';

export interface RuntimeOptions {
  dataDir: string;
  secretBox: SecretBox;
  /** A server to use instead of an embedded one (read-only profile "env"). */
  redisUrl?: string;
  /** Web build: profiles from a JSON config file. */
  configFile?: string;
  /** Start a private redis-server when no REDIS_URL and no config file is given. */
  embedded?: boolean;
}

export interface Runtime {
  attach(wire: Wire, session: Session): () => void;
  close(): Promise<void>;
  readonly version: string;
  /** Profiles the runtime registered itself (embedded, REDIS_URL), for start-up messages. */
  readonly builtinProfiles: StoredProfile[];
  readonly embedded: RedisProcess | null;
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

  const profiles = new ProfileStore({ dataDir: opts.dataDir, secretBox: opts.secretBox, readOnly: builtin });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const dispatcher = new Dispatcher(createHandlers({ version: VERSION, profiles, pool }), {
    mapError: (e) => toAppError(e),
  });

  let closing: Promise<void> | null = null;
  return {
    version: VERSION,
    builtinProfiles: builtin,
    embedded,
    attach: (wire, session) => dispatcher.attach(wire, session),
    close() {
      closing ??= (async () => {
        await pool.shutdown();
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
