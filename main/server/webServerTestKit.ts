import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime';
import { createWebServer } from './webServer';

/** The web server over a runtime, listening on a free loopback port, without a built UI; `base` is its host:port. */
export async function listenWebServer(runtime: Runtime): Promise<{ app: FastifyInstance; base: string }> {
  const app = await createWebServer({
    version: runtime.version,
    attach: runtime.attach,
    upload: runtime.upload,
    staticDir: join(tmpdir(), 'cacheboard-no-such-dir'),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  return { app, base: `127.0.0.1:${addr.port}` };
}
