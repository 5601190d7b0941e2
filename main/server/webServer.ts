import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError } from '../../app/errors';
import type { LoadFile } from '../../app/schemas/bulk';
import type { Session } from '../rpc/session';
import type { Wire } from '../rpc/wire';
import { originAllowed } from './originCheck';
import { SECURITY_HEADERS } from './securityHeaders';
import { wsWire } from './wsWire';

export interface WebServerOptions {
  version: string;
  attach(wire: Wire, session: Session): () => void;
  upload(session: Session, name: string, body: Readable): Promise<LoadFile>;
  /** Built renderer (dist/renderer). */
  staticDir: string;
  /** Who a new WebSocket client is. Login arrives with the security issue. */
  sessionFor(): Session;
  /** Largest accepted WebSocket message. */
  maxMessageBytes?: number;
  allowedOrigins?: string[];
}

export async function createWebServer(opts: WebServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
  app.addHook('onSend', async (_req, reply) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) reply.header(k, v);
  });

  await app.register(fastifyWebsocket, { options: { maxPayload: opts.maxMessageBytes ?? 1 << 20 } });

  app.get('/api/health', async () => ({ status: 'ok', version: opts.version }));

  app.get('/api/ws', { websocket: true }, (socket, req) => {
    if (!originAllowed(req.headers.origin, req.headers.host, opts.allowedOrigins)) {
      socket.close(1008, 'origin not allowed');
      return;
    }
    // A protocol error must never take the process down; the dispatcher answers it.
    socket.on('error', () => socket.terminate());
    opts.attach(wsWire(socket), opts.sessionFor());
  });

  // Uploads are raw bodies streamed to disk, never buffered: the route takes the stream as is.
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  app.post<{ Querystring: { name?: string } }>('/api/uploads', { bodyLimit: Number.MAX_SAFE_INTEGER }, async (req, reply) => {
    // A custom header forces a CORS preflight, so another site's form cannot post here.
    if (req.headers['x-cacheboard-upload'] !== '1' || !originAllowed(req.headers.origin, req.headers.host, opts.allowedOrigins)) {
      return reply.code(403).send({ error: { code: 'FORBIDDEN', message: 'Uploads must come from the Cacheboard page' } });
    }
    const name = req.query.name;
    if (typeof name !== 'string' || name.trim() === '') {
      return reply.code(400).send({ error: { code: 'VALIDATION', message: 'name query parameter is required', field: 'name' } });
    }
    try {
      const file = await opts.upload(opts.sessionFor(), name, req.body as Readable);
      return { file };
    } catch (e) {
      const err = e instanceof AppError ? e : new AppError('INTERNAL', 'Upload failed; see the server log');
      if (!(e instanceof AppError)) console.error('upload failed:', e);
      const status = err.code === 'VALIDATION' && err.field === 'file' ? 413 : err.code === 'FORBIDDEN' ? 403 : 400;
      return reply.code(status).send({ error: err.toInfo() });
    }
  });

  if (existsSync(opts.staticDir)) {
    await app.register(fastifyStatic, { root: opts.staticDir, index: 'index.html' });
  } else {
    app.get('/', async (_req, reply) =>
      reply
        .type('text/plain')
        .send(`The UI is not built (${opts.staticDir} is missing). Run: npm run build:renderer`),
    );
  }
  return app;
}
