import { describe, expect, it } from 'vitest';
import { useRestrictedRuntime } from './restrictedRpcTestKit';

// The runtime's profile is an ACL user without @admin and @dangerous: no INFO, SLOWLOG, LATENCY or CLIENT LIST.
const { redis, ops } = useRestrictedRuntime();

describe('pages of an ACL user without @admin and @dangerous', () => {
  it('the slow log names SLOWLOG GET and LATENCY LATEST as missing, with empty tables, not an error', async () => {
    const reply = await ops().invoke('metrics.slowlog', { profileId: 'env', count: 8 });
    expect(reply.slowlog).toEqual([]);
    expect(reply.latency).toEqual([]);
    expect(reply.restrictions?.map((r) => r.command).sort()).toEqual(['LATENCY LATEST', 'SLOWLOG GET']);
  });

  it('Clients names CLIENT LIST as missing for the node, with no error and no count of 0 presented as read', async () => {
    const reply = await ops().invoke('clients.list', { profileId: 'env' });
    const [node] = reply.nodes;
    expect(node?.error).toBeUndefined();
    expect(node?.up).toBe(true);
    expect(node?.restrictions).toEqual([{ command: 'CLIENT LIST', effect: expect.stringContaining('not listed') }]);
  });

  it('the console lists the node it can reach though INFO is refused', async () => {
    const reply = await ops().invoke('console.targets', { profileId: 'env' });
    expect(reply.nodes.map((n) => n.address)).toEqual([`127.0.0.1:${redis().port}`]);
  });

  it('Overview: BGSAVE and BGREWRITEAOF refused with the INFO that times them answer one line each, not an error', async () => {
    const client = ops();
    const ran = await client.invoke('metrics.action', { profileId: 'env', address: `127.0.0.1:${redis().port}`, action: 'bgrewriteaof' });
    expect(ran).toMatchObject({ refused: { command: 'INFO', effect: expect.stringContaining('AOF rewrite') } });
    // Remembered for the profile: the page shows both actions off, with their lines, before anyone tries again.
    const listed = await client.invoke('metrics.actions', { profileId: 'env' });
    expect(listed.restrictions).toEqual([
      { command: 'INFO', effect: expect.stringContaining('RDB snapshot') },
      { command: 'INFO', effect: expect.stringContaining('AOF rewrite') },
    ]);
  });
});
