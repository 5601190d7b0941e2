import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { adminClient, useRedis } from '../../../testing/redis';
import { requestTemplate } from './loadRequests';
import { SCRATCH_TTL_MS } from './scratch';

const redis = useRedis({ args: ['--save', ''] });

/** Writes raw RESP to the server and resolves with the reply's text. */
function sendRaw(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.once('data', (d) => {
      socket.end();
      resolve(d.toString('latin1'));
    });
    socket.once('error', reject);
  });
}

describe('the load trial request', () => {
  it('a SET request is a valid command whose scratch key expires on its own (a killed trial leaks it for an hour at most)', async () => {
    const { bytes, digitsAt } = requestTemplate({ command: 'set', dataSize: 3, prefix: 'cacheboard:trial:t1:' });
    bytes.write('0000000042', digitsAt, 'latin1');
    expect(await sendRaw(redis().port, bytes)).toBe('+OK\r\n');
    const admin = await adminClient(redis());
    const keys = await admin.keys('cacheboard:trial:t1:*');
    expect(keys).toHaveLength(1);
    const ttl = await admin.pttl(keys[0] as string);
    expect(ttl).toBeGreaterThan(SCRATCH_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(SCRATCH_TTL_MS);
  });
});
