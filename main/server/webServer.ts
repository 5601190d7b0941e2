import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Session } from '../rpc/session';
import type { Wire } from '../rpc/wire';
import { originAllowed } from './originCheck';
import { SECURITY_HEADERS } from './securityHeaders';
import { wsWire } from './wsWire';

export interface WebServerOptions {
  version: string;
  attach(wire: Wire, session: Session): () => void;
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
