import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError } from '../../app/errors';
import type { LoadFile } from '../../app/schemas/bulk';
import type { Session } from '../rpc/session';
import type { Wire } from '../rpc/wire';
import { registerAuth, type AuthMode } from './auth/webAuth';
import { hostIsLoopback } from './hostCheck';
import { originAllowed } from './originCheck';
import { SECURITY_HEADERS } from './securityHeaders';
import { MAX_FRAME_BYTES, wsWire } from './wsWire';

export interface WebServerOptions {
  version: string;
  attach(wire: Wire, session: Session): () => void;
  upload(session: Session, name: string, body: Readable): Promise<LoadFile>;
  /** An export's bytes (export.start), for the session that started it; absent: no export downloads. */
  download?(session: Session, jobId: string): { body: Readable; fileName: string; contentType: string };
  /** Built renderer (dist/renderer). */
  staticDir: string;
  /** Users and sessions, or local mode (loopback, one implicit ops user). Default: local. */
  auth?: AuthMode;
  /** Largest WebSocket message read before the socket is closed with 1009 (default MAX_FRAME_BYTES). */
  maxFrameBytes?: number;
  /** Most bytes held unsent for one socket before it is closed with BACKLOG_CLOSE_CODE (default MAX_BUFFERED_BYTES). */
  maxBufferedBytes?: number;
  allowedOrigins?: string[];
  /** Serve HTTPS (PEM). */
  https?: { cert: Buffer; key: Buffer };
}

export async function createWebServer(opts: WebServerOptions): Promise<FastifyInstance> {
  // req.ip follows X-Forwarded-For only when the direct peer is one of these (Fastify's trustProxy).
  const trustProxy = (opts.auth?.kind === 'users' ? opts.auth.trustedProxies : opts.auth?.lock?.trustedProxies) ?? false;
  const app = (
    opts.https === undefined
      ? Fastify({ logger: false, bodyLimit: 1 << 20, trustProxy })
      : Fastify({ logger: false, bodyLimit: 1 << 20, trustProxy, https: opts.https })
  ) as FastifyInstance;
  app.addHook('onSend', async (_req, reply) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) reply.header(k, v);
  });

  await app.register(fastifyWebsocket, { options: { maxPayload: opts.maxFrameBytes ?? MAX_FRAME_BYTES } });

  app.get('/api/health', async () => ({ status: 'ok', version: opts.version }));

  const mode = opts.auth ?? { kind: 'local' };
  const auth = registerAuth(app, mode, opts.allowedOrigins);
  if (mode.kind === 'local') {
    // Local mode trusts whoever reaches it, so only loopback names may: a DNS-rebinding
    // page (evil.example resolving to 127.0.0.1) arrives with its own name in Host.
    app.addHook('onRequest', async (req, reply) => {
      if (auth.isLocal() && !hostIsLoopback(req.headers.host)) {
        return reply.code(403).send({ error: { code: 'FORBIDDEN', message: 'This local Cacheboard answers only to localhost / 127.0.0.1.' } });
      }
    });
  }
  const sockets = new Map<string, Set<{ close(code: number, reason: string): void }>>();
  auth.onSessionEnd((token, reason) => {
    for (const ws of sockets.get(token) ?? []) ws.close(4401, reason);
    sockets.delete(token);
  });
  // Sessions expire while sockets stay open: close those whose session is gone. Checking a session
  // also checks its user's record, so this catches a users-file change no watch event reported.
  const sweep = setInterval(() => {
    for (const [token, set] of sockets) {
      if (auth.alive(token)) continue;
      for (const ws of set) ws.close(4401, 'session expired');
      sockets.delete(token);
    }
  }, 5_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  app.get(
    '/api/ws',
    {
      websocket: true,
      // Refused before the upgrade: a foreign page or a signed-out client never gets a socket.
      preValidation: async (req, reply) => {
        if (!originAllowed(req.headers.origin, req.headers.host, opts.allowedOrigins)) {
          return reply.code(403).send({ error: { code: 'FORBIDDEN', message: 'Origin not allowed' } });
        }
        if (auth.sessionOf(req) === null) {
          return reply.code(401).send({ error: { code: 'UNAUTHENTICATED', message: 'Sign in first' } });
        }
      },
    },
    (socket, req) => {
      const session: Session | null = auth.sessionOf(req);
      if (session === null) {
        socket.close(4401, 'sign in first');
        return;
      }
      // A protocol error must never take the process down; the dispatcher answers it.
      socket.on('error', () => socket.terminate());
      // Local sockets too, under local mode's one token: they close when the server turns to sign-in.
      const token = auth.tokenOf(req);
      if (token !== undefined) {
        const set = sockets.get(token) ?? new Set();
        set.add(socket);
        sockets.set(token, set);
        socket.on('close', () => set.delete(socket));
      }
      const overflow = (m: string) => console.error(`${session.user ?? 'local user'}: ${m}`);
      opts.attach(
        wsWire(socket, { onOverflow: overflow, ...(opts.maxBufferedBytes === undefined ? {} : { maxBufferedBytes: opts.maxBufferedBytes }) }),
        session,
      );
    },
  );

  // Uploads are raw bodies streamed to disk, never buffered: the route takes the stream as is.
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  app.post<{ Querystring: { name?: string } }>('/api/uploads', { bodyLimit: Number.MAX_SAFE_INTEGER }, async (req, reply) => {
    // A custom header forces a CORS preflight, so another site's form cannot post here.
    if (req.headers['x-cacheboard-upload'] !== '1' || !originAllowed(req.headers.origin, req.headers.host, opts.allowedOrigins)) {
      return reply.code(403).send({ error: { code: 'FORBIDDEN', message: 'Uploads must come from the Cacheboard page' } });
    }
    const session = auth.sessionOf(req);
    if (session === null) {
      return reply.code(401).send({ error: { code: 'UNAUTHENTICATED', message: 'Sign in first' } });
    }
    const name = req.query.name;
    if (typeof name !== 'string' || name.trim() === '') {
      return reply.code(400).send({ error: { code: 'VALIDATION', message: 'name query parameter is required', field: 'name' } });
    }
    try {
      const file = await opts.upload(session, name, req.body as Readable);
      return { file };
    } catch (e) {
      const err = e instanceof AppError ? e : new AppError('INTERNAL', 'Upload failed; see the server log');
      if (!(e instanceof AppError)) console.error('upload failed:', e);
      const status = err.code === 'VALIDATION' && err.field === 'file' ? 413 : err.code === 'FORBIDDEN' ? 403 : 400;
      return reply.code(status).send({ error: err.toInfo() });
    }
  });

  // An export started with export.start streams here as it is written. A GET the browser follows
  // with its session cookie: the job id is random and claim() serves it to its owner only, once.
  app.get<{ Params: { jobId: string } }>('/api/exports/:jobId', async (req, reply) => {
    const session = auth.sessionOf(req);
    if (session === null) return reply.code(401).send({ error: { code: 'UNAUTHENTICATED', message: 'Sign in first' } });
    if (opts.download === undefined) return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No export downloads here' } });
    try {
      const d = opts.download(session, req.params.jobId);
      req.raw.on('close', () => {
        // The browser went away (or the download was cancelled there): the export stops writing.
        if (!reply.raw.writableFinished) d.body.destroy();
      });
      return reply
        .header('content-type', d.contentType)
        .header('content-disposition', `attachment; filename="${d.fileName}"`)
        .header('cache-control', 'no-store')
        .send(d.body);
    } catch (e) {
      const err = e instanceof AppError ? e : new AppError('INTERNAL', 'Download failed; see the server log');
      if (!(e instanceof AppError)) console.error('export download failed:', e);
      return reply.code(err.code === 'FORBIDDEN' ? 403 : err.code === 'NOT_FOUND' ? 404 : 400).send({ error: err.toInfo() });
    }
  });

  if (existsSync(opts.staticDir)) {
    await app.register(fastifyStatic, { root: opts.staticDir, index: 'index.html' });
  } else {
    app.get('/', async (_req, reply) => reply.type('text/plain').send(`The UI is not built (${opts.staticDir} is missing). Run: npm run build:renderer`));
  }
  return app;
}
