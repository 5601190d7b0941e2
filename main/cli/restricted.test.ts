import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';
import { renamedAway, restrictedUrl, restrictedUserRules } from '../../testing/restricted';

// One server without ElastiCache's disabled commands, one with an ACL user without @admin and @dangerous.
const renamed = useRedis(renamedAway());
const acl = useRedis();
const dataDir = mkdtempSync(join(tmpdir(), 'cb-restricted-'));
const env = { CACHEBOARD_DATA_DIR: dataDir };

beforeAll(async () => {
  const admin = await adminClient(acl());
  await admin.call('ACL', ...restrictedUserRules());
  await admin.set('user:1', 'a');
  const side = await adminClient(renamed());
  await side.set('user:1', 'a');
});
afterAll(async () => {
  await closeAdmins();
  rmSync(dataDir, { recursive: true, force: true });
});

const run = (...args: string[]) => runCli(args, undefined, env);
/** stdout lines that name a missing command, as every command words them. */
const notices = (out: string) => out.split('\n').filter((l) => / is not available here: /.test(l));

describe('cacheboard info, where commands are missing', () => {
  it('without CONFIG and BGSAVE (renamed away) every figure is there', async () => {
    const r = await run('info', '--json', '--url', renamed().url);
    expect(r.code).toBe(0);
    const [node] = (JSON.parse(r.out) as { nodes: Array<Record<string, unknown>> }).nodes;
    expect(node).toMatchObject({ up: true, role: 'master', keyspace: { db0: { keys: 1, expires: 0 } } });
    expect(node?.['used_memory']).toEqual(expect.any(Number));
    expect(node?.['restrictions']).toBeUndefined();
  });

  it('an ACL user refused INFO sees the node up with one line naming INFO, every figure null (unknown), not 0 or DOWN', async () => {
    const r = await run('info', '--url', restrictedUrl(acl().port));
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/DOWN/);
    expect(notices(r.out)).toEqual([expect.stringMatching(/^ {2}INFO is not available here: no figures for this node/)]);
    const j = await run('info', '--json', '--url', restrictedUrl(acl().port));
    const [node] = (JSON.parse(j.out) as { nodes: Array<Record<string, unknown>> }).nodes;
    expect(node).toMatchObject({ up: true, role: null, ops_per_sec: null, used_memory: null, connected_clients: null, keyspace: null });
    expect(node?.['restrictions']).toEqual([{ command: 'INFO', effect: expect.stringContaining('no figures') }]);
  });
});

describe('cacheboard doctor, where commands are missing', () => {
  it('an ACL user refused CLIENT LIST and INFO gets one line for each, and the DBs are still looked at', async () => {
    const admin = await adminClient(acl());
    await admin.select(2);
    await admin.set('cacheboard:trial:old:k', 'x');
    const r = await run('doctor', '--json', '--url', restrictedUrl(acl().port));
    const [server] = (JSON.parse(r.out) as { servers: Array<{ scratch: unknown; restrictions: Array<{ command: string }> }> }).servers;
    expect(server?.restrictions.map((x) => x.command)).toEqual(['CLIENT LIST', 'INFO']);
    // Found by DBSIZE of DBs 0-15, INFO keyspace being refused.
    expect(server?.scratch).toEqual([{ db: 2, keys: 1 }]);
    expect(r.code).toBe(1);
    const fixed = await run('doctor', '--fix', '--url', restrictedUrl(acl().port));
    expect(notices(fixed.out).map((l) => l.trim().split(' ')[0])).toEqual(['CLIENT', 'INFO']);
    // Without CLIENT LIST a running trial cannot be told: its scratch keys are left.
    expect(await admin.exists('cacheboard:trial:old:k')).toBe(1);
    await admin.del('cacheboard:trial:old:k');
  });

  it('without CONFIG and BGSAVE nothing is missing for the doctor', async () => {
    const r = await run('doctor', '--url', renamed().url);
    expect(r.code).toBe(0);
    expect(notices(r.out)).toEqual([]);
  });
});

describe('the other commands, where commands are missing', () => {
  it('keys get says the eviction policy is unknown without CONFIG, and shows the value', async () => {
    for (const url of [renamed().url, restrictedUrl(acl().port)]) {
      const r = await run('keys', 'get', 'user:1', '--url', url);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^policy +\? \(CONFIG refused\)$/m);
      expect(r.out).toMatch(/^a$/m);
    }
  });

  it('a pipeline trial runs for an ACL user refused INFO and CLIENT LIST', async () => {
    const r = await run('trials', 'pipeline', '--n', '2000', '--no-sweep', '--url', `${restrictedUrl(acl().port)}/5`);
    expect(r.err).not.toMatch(/denied/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ *pipelined batches /m);
  });

  it('a key action by an ACL user refused INFO runs, with one note naming INFO', async () => {
    const admin = await adminClient(acl());
    await admin.select(6);
    await admin.mset('gone:1', 'a', 'gone:2', 'b');
    const r = await run('keys', 'delete', '--match', 'gone:*', '--yes', '--url', `${restrictedUrl(acl().port)}/6`);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Deleted 2 of 2/);
    expect(notices(r.out)).toEqual([expect.stringMatching(/INFO is not available here: a server restarted/)]);
    expect(await admin.dbsize()).toBe(0);
  });

  it('a load without CONFIG or BGSAVE loads, and its report says what was not protected', async () => {
    const file = join(dataDir, 'in.csv');
    writeFileSync(file, 'id,v\n1,a\n2,b\n');
    const r = await run('load', file, '--key', 'user:{id}', '--value', 'v', '--bgsave', '--url', `${renamed().url}/7`);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/CONFIG is not available .*automatic saves are left as configured, so a save may fork during the load/);
    expect(r.out).toMatch(/BGSAVE is not available .*no snapshot was made/);
    expect(r.out).toMatch(/writes to live db7: not counted .*CONFIG is not available/);
    const j = await run('load', file, '--key', 'user:{id}', '--value', 'v', '--bgsave', '--json', '--url', `${renamed().url}/7`);
    const restrictions = (JSON.parse(j.out) as { restrictions: Array<{ command: string; effect: string }> }).restrictions;
    expect(restrictions).toEqual([
      { command: 'CONFIG', effect: expect.stringMatching(/^automatic saves were not turned off/) },
      { command: 'BGSAVE', effect: 'no snapshot was made after the load (--bgsave)' },
      // Said at the cleanup, where the live writes' counter is closed.
      { command: 'CONFIG', effect: expect.stringMatching(/^writes other clients made to the live DB during the load were not counted/) },
    ]);
  }, 60_000);
});

describe('cacheboard load as an ACL user without @admin and @dangerous', () => {
  const csv = (name: string): string => {
    const file = join(dataDir, name);
    writeFileSync(file, 'id,v\n1,a\n2,b\n3,c\n');
    return file;
  };

  it('merge loads, and the report names each protection not applied with the command that was missing', async () => {
    const r = await run(
      'load',
      csv('acl.csv'),
      '--key',
      'acl:{id}',
      '--value',
      'v',
      '--mode',
      'merge',
      '--bgsave',
      '--json',
      '--url',
      `${restrictedUrl(acl().port)}/8`,
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { outcome: string; records: number; restrictions: Array<{ command: string; effect: string }>; evicted_keys?: number };
    expect(j).toMatchObject({ outcome: 'ok', records: 3 });
    // Never measured, so never reported: no eviction count without INFO.
    expect(j.evicted_keys).toBeUndefined();
    expect(j.restrictions.map((x) => x.command)).toEqual(['INFO', 'INFO', 'INFO', 'CONFIG', 'CLIENT KILL', 'CLIENT LIST', 'BGSAVE']);
    expect(j.restrictions.map((x) => x.effect).join('\n')).toMatch(
      /no memory pre-flight[^]*evictions are not watched[^]*replica lag not available: INFO refused[^]*automatic saves were not turned off[^]*no snapshot was made/,
    );
    const admin = await adminClient(acl());
    await admin.select(8);
    expect(await admin.mget('acl:1', 'acl:2', 'acl:3')).toEqual(['a', 'b', 'c']);

    const text = await run('load', csv('acl2.csv'), '--key', 'acl:{id}', '--value', 'v', '--mode', 'merge', '--url', `${restrictedUrl(acl().port)}/8`);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^ {2}not protected:$/m);
    expect(text.out).toMatch(/^ {4}INFO is not available here: evictions are not watched/m);
    expect(text.out).toMatch(/^ {4}CONFIG is not available here: automatic saves were not turned off/m);
  }, 60_000);

  it('swap and flush are refused before anything is written, naming SWAPDB and FLUSHDB and offering merge', async () => {
    const admin = await adminClient(acl());
    await admin.select(9);
    await admin.set('live', 'kept');
    for (const [mode, missing] of [
      ['swap', /SWAPDB is refused \(NOPERM[^)]*\); FLUSHDB is refused/],
      ['flush', /FLUSHDB is refused \(NOPERM/],
    ] as const) {
      const r = await run('load', csv(`${mode}.csv`), '--key', 'acl:{id}', '--value', 'v', '--mode', mode, '--json', '--url', `${restrictedUrl(acl().port)}/9`);
      expect(r.code).toBe(1);
      const j = JSON.parse(r.out) as { records: number; error: { message: string; field: string } };
      expect(j.error.field).toBe('mode');
      expect(j.error.message).toMatch(missing);
      expect(j.error.message).toMatch(/Nothing was written; what can run here: --mode merge/);
      expect(j.records).toBe(0);
    }
    expect(await admin.dbsize()).toBe(1);
    expect(await admin.get('live')).toBe('kept');
  }, 60_000);

  it('the audit record names what was not protected', async () => {
    const r = await run('load', csv('audit.csv'), '--key', 'acl:{id}', '--value', 'v', '--mode', 'merge', '--url', `${restrictedUrl(acl().port)}/8`);
    expect(r.code).toBe(0);
    const audit = readFileSync(join(dataDir, 'audit.log'), 'utf8').trim().split('\n').at(-1) ?? '';
    expect(audit).toMatch(/not protected \(INFO missing\): no memory pre-flight/);
    expect(audit).toMatch(/not protected \(CLIENT KILL missing\)/);
  }, 60_000);
});
