import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { configRpc, type ConfigRpc } from './configRpcTestKit';

// A managed service's way: CONFIG renamed away.
const renamed = useRedis({ args: ['--rename-command', 'CONFIG', '""'] });
// An ACL user for analysts that may read data but not run CONFIG.
const acl = useRedis();
const ANALYST_PASS = 'Pw-analyst-acl-3e8b';
let rpc: ConfigRpc;

beforeAll(async () => {
  const admin = await adminClient(acl());
  await admin.call('ACL', 'SETUSER', 'ana', 'on', `>${ANALYST_PASS}`, '~*', '&*', '+@all', '-config');
  rpc = configRpc([
    { id: 'managed', source: 'config', spec: specFor(renamed(), { name: 'managed' }) },
    { id: 'acl', source: 'config', spec: specFor(acl(), { name: 'acl' }), analyst: { username: 'ana', password: ANALYST_PASS } },
  ]);
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

describe('CONFIG refused', () => {
  it('a renamed CONFIG is one clear note, not an error per node', async () => {
    const view = await rpc.call('ops', 'config.get', { profileId: 'managed' });
    expect(view.nodes).toMatchObject([{ state: 'refused' }]);
    expect(view.nodes[0]?.error).toBeUndefined();
    expect(view.params).toEqual([]);
    expect(view.refusal).toMatchObject({ kind: 'renamed', nodes: 1, reply: expect.stringMatching(/unknown command/i) as unknown });
    expect(view.refusal?.message).toMatch(/renamed or disabled the command, as managed services .* do/);
    // INFO still answers: the config file is known even where CONFIG is not.
    expect(view.nodes[0]?.configFile).toBe('');

    const set = await rpc.call('ops', 'config.set', { profileId: 'managed', name: 'maxmemory', value: '1mb', target: { scope: 'every' } });
    expect(set.results[0]).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } });
    expect(set.results[0]?.error?.message).toMatch(/CONFIG is not available: .*Redis replied: ERR unknown command/);
  });

  it("an ACL user without +config reads as an ACL refusal, while ops' own user reads it all", async () => {
    const view = await rpc.call('analyst', 'config.get', { profileId: 'acl' });
    expect(view.nodes).toMatchObject([{ state: 'refused' }]);
    expect(view.refusal).toMatchObject({ kind: 'acl', nodes: 1, reply: expect.stringMatching(/^NOPERM/) as unknown });
    expect(view.refusal?.message).toMatch(/may not run CONFIG \(ACL\)\. Reading needs \+config\|get/);
    const ops = await rpc.call('ops', 'config.get', { profileId: 'acl' });
    expect(ops.refusal).toBeUndefined();
    expect(ops.params.length).toBeGreaterThan(100);
  });

  it('never sends the analyst password back', () => {
    expect(rpc.frames().filter((f) => f.includes(ANALYST_PASS))).toEqual([]);
  });
});
