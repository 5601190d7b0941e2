import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../app/errors';
import { aesSecretBox } from '../core/pool/aesSecretBox';
import { noSecretBox } from '../core/pool/noSecretBox';
import { createRuntime } from '../runtime';
import { createWebServer } from '../server/webServer';
import { parseServeArgs } from './serveArgs';
import { authModeFor, revokeJobsOfLeavers } from './serveAuth';
import { readServeEnv } from './serveEnv';
import { stopServeOnSignals } from './serveStop';

const STATIC_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));

/** `cacheboard serve`: the web build. Resolves once listening; stops on SIGTERM, SIGINT or SIGHUP (see serveStop). */
export async function serve(argv: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const cfg = readServeEnv(env, parseServeArgs(argv));
  const auth = authModeFor(cfg);
  const secretBox = cfg.secretKey
    ? aesSecretBox(cfg.secretKey)
    : noSecretBox(
        'The web build stores passwords typed in the UI only when CACHEBOARD_SECRET_KEY is set. ' +
          'Set it, or reference passwordEnv/passwordFile in the CACHEBOARD_CONFIG file.',
      );
  const runtime = await createRuntime({
    dataDir: cfg.dataDir,
    secretBox,
    embedded: true,
    // Generous for a person clicking (and the UI's own streams), tight for a script flooding Redis.
    callsPerSecond: 50,
    recordHistory: { idleMinutes: cfg.historyIdle },
    ...(cfg.importDir ? { importDir: cfg.importDir } : {}),
    ...(cfg.uploadLimitBytes ? { uploadLimitBytes: cfg.uploadLimitBytes } : {}),
    ...(cfg.redisUrl ? { redisUrl: cfg.redisUrl } : {}),
    ...(cfg.configFile ? { configFile: cfg.configFile } : {}),
  });

  const app = await createWebServer({
    version: runtime.version,
    attach: runtime.attach,
    upload: runtime.upload,
    download: runtime.download,
    staticDir: STATIC_DIR,
    auth,
    ...(cfg.publicUrl === undefined ? {} : { allowedOrigins: [cfg.publicUrl] }),
    ...(cfg.wsBufferBytes === undefined ? {} : { maxBufferedBytes: cfg.wsBufferBytes }),
    ...(cfg.tls === undefined ? {} : { https: { cert: readFileSync(cfg.tls.certFile), key: readFileSync(cfg.tls.keyFile) } }),
  });

  stopServeOnSignals(app, runtime);
  revokeJobsOfLeavers(auth, runtime);

  try {
    await app.listen({ port: cfg.port, host: cfg.host });
  } catch (e) {
    await runtime.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new AppError('CONFLICT', `Port ${cfg.port} is already in use on ${cfg.host}; set PORT to a free port`, 'PORT');
    }
    throw e;
  }
  const shownHost = cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host;
  if (runtime.embedded) {
    console.log(`Started a private redis-server on ${runtime.embedded.host}:${runtime.embedded.port} (profile "Local (embedded)")`);
  }
  for (const p of runtime.builtinProfiles.filter((b) => b.source === 'config')) {
    console.log(`Profile "${p.spec.name}" -> ${p.spec.host}:${p.spec.port}/${p.spec.db}`);
  }
  const scheme = cfg.tls === undefined ? 'http' : 'https';
  console.log(`Cacheboard ${runtime.version} is ready: open ${cfg.publicUrl ?? `${scheme}://${shownHost}:${cfg.port}`}/`);
  console.log(
    auth.kind === 'users'
      ? `Sign-in required (users from ${cfg.usersFile}).`
      : `Local mode: loopback only, no sign-in until a user is added to ${cfg.usersFile} (then sign-in is required at once).`,
  );
}
