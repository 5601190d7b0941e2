import { createServer, type Server, type Socket } from 'node:net';

interface ListenNow {
  _listen2?: (address: string, port: number, addressType: number, backlog: number) => void;
}

/**
 * A TCP server bound to 127.0.0.1 on a free port before this returns. `listen(0, '127.0.0.1')` binds a tick
 * later (it looks the address up first), but an ioredis natMap function must return the port synchronously;
 * Node's own primary-process path binds with `_listen2` synchronously, so we take it directly.
 */
export function listenLoopbackNow(onConnection: (socket: Socket) => void): { server: Server; port: number } {
  const server = createServer(onConnection);
  const listen = (server as unknown as ListenNow)._listen2;
  if (typeof listen !== 'function') throw new Error('This Node.js cannot bind a port synchronously (net.Server._listen2 is missing)');
  listen.call(server, '127.0.0.1', 0, 4, 511);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('Could not bind a loopback port for the SSH tunnel');
  return { server, port: address.port };
}
