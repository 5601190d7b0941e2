import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../../app/errors';
import { eventually } from '../../../testing/redis';
import type { RawConnection } from '../resp/rawConnection';
import { SubscriberNode, type Member } from './subscriberNode';

let server: Server | undefined;
afterEach(() => server?.close());

/** A server that answers the first thing it is sent with `reply`: what a wrong port or a proxy may send. */
async function fake(reply: string): Promise<() => Promise<RawConnection>> {
  server = createServer((s) => s.once('data', () => s.write(reply)));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return async () => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    await new Promise((r) => socket.once('connect', r));
    return { socket, address: `127.0.0.1:${port}`, clientId: undefined, close: async () => void socket.end(), destroy: () => socket.destroy() };
  };
}

function member() {
  const m = { states: [] as string[], ended: [] as AppError[] };
  const it: Member = { message: () => undefined, state: (s) => m.states.push(s), gap: () => undefined, notice: () => undefined, end: (e) => m.ended.push(e) };
  return { ...m, it };
}

describe('SubscriberNode', () => {
  it('is live once Redis confirms every name, then ends its viewers on bytes that are not RESP instead of throwing', async () => {
    const open = await fake('*3\r\n$9\r\nsubscribe\r\n$1\r\nx\r\n:1\r\n?garbage\r\n');
    const node = new SubscriberNode('fake', open, 4096);
    const m = member();
    node.add(m.it, [{ kind: 'channel', name: Buffer.from('x') }]);
    node.start();
    expect(await eventually(() => m.ended.length === 1)).toBe(true);
    expect(m.states).toContain('live');
    expect(m.ended[0]).toMatchObject({ code: 'INTERNAL', message: expect.stringContaining('not a Pub/Sub reply') });
    node.stop();
  });
});
