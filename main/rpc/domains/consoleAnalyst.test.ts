import { describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { readmeAclLine } from '../../../testing/readmeAcl';
import { onlyReply, useConsoleOnServer } from './consoleRpcTestKit';

const OPS_PW = 'ops-Secret-4410';
const ANALYST_PW = 'analyst-Secret-2231';
const { admin, rpc } = useConsoleOnServer({
  server: { password: OPS_PW },
  arrange: async (admin) => {
    await admin.call('ACL', 'SETUSER', ...readmeAclLine(ANALYST_PW));
    await admin.set('user:1', 'v');
  },
  profiles: (redis) => [{ id: 'p', source: 'config', spec: specFor(redis, { password: OPS_PW }), analyst: { username: 'cb-analyst', password: ANALYST_PW } }],
});

describe("an analyst's console", () => {
  it('is refused a write by our server (FORBIDDEN, naming its categories), which never reaches Redis', async () => {
    const sets = async () => Number((await admin().info('commandstats')).match(/cmdstat_set:calls=(\d+)/)?.[1] ?? 0);
    const before = await sets();
    const e = await rpc().refusal('analyst', { line: 'SET user:1 changed' });
    expect(e).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/^Analysts may run only @read commands; SET is in .*@write/) });
    expect(await admin().get('user:1')).toBe('v');
    expect(rpc().audit().at(-1)).toMatchObject({ user: 'analyst-user', action: 'console', outcome: 'refused', detail: expect.stringMatching(/^SET "user:1"/) });
    expect(await sets()).toBe(before);
  });

  it("runs reads as the profile's analyst ACL user, and a read that user may not run comes back as NOPERM from Redis", async () => {
    const who = await rpc()
      .done('analyst', { line: 'ACL WHOAMI' })
      .catch((e: Error) => e);
    // ACL WHOAMI is not @read: the analyst may not even ask; GET is, and runs as cb-analyst.
    expect(who).toMatchObject({ code: 'FORBIDDEN' });
    expect(onlyReply(await rpc().done('analyst', { line: 'GET user:1' }))).toEqual({ t: 'bulk', v: 'v', bytes: 1 });
    const list = String(await admin().client('LIST'))
      .split('\n')
      .filter((l) => l.includes('name=cacheboard:console:p'));
    expect(list.map((l) => /user=(\S+)/.exec(l)?.[1])).toContain('cb-analyst');
    // SCAN is @read and not @dangerous, so our server lets it through; the ACL below takes it away, so Redis refuses it.
    await admin().call('ACL', 'SETUSER', 'cb-analyst', '-scan');
    const scan = await rpc().done('analyst', { line: 'SCAN 0' });
    expect(onlyReply(scan)).toMatchObject({ t: 'error', v: expect.stringMatching(/^NOPERM /) });
    expect(scan.replies[0]?.hint).toContain('"cb-analyst"');
    await admin().call('ACL', 'SETUSER', 'cb-analyst', '+scan');
  });

  it("runs the same write for ops, as the profile's own user", async () => {
    await rpc().done('ops', { line: 'SET user:1 changed' });
    expect(await admin().get('user:1')).toBe('changed');
  });
});
