import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { ReplyNode, RunResult } from '../../../app/schemas/console';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { MASKED } from '../../core/text/configSecrets';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

/*
 * An analyst's console, over the whole dispatcher (every domain bound, as serve binds them): the
 * admin reads the Overview, Config and Clients pages already show analysts run here too, masked
 * as those pages mask them; what is still refused names the page that shows it.
 */

const PASSWORD = 'requirepass-Secret-8812';
const VALUE = 'slowlog-value-Secret-5519';
const redis = useRedis({ password: PASSWORD });
const root = mkdtempSync(join(tmpdir(), 'cb-console-analyst-reads-'));
let runtime: Runtime;
let admin: Redis;
let analyst: RpcClient;

beforeAll(async () => {
  const configFile = join(root, 'cacheboard.json');
  writeFileSync(configFile, JSON.stringify({ profiles: [{ id: 'p', name: 'p', host: redis().host, port: redis().port, password: PASSWORD }] }));
  runtime = await createRuntime({ dataDir: join(root, 'data'), secretBox: noSecretBox('tests'), configFile });
  admin = await adminClient(redis(), { password: PASSWORD });
  const { server, client: end } = createMemoryWirePair();
  runtime.attach(server, { role: 'analyst', user: 'ana' });
  analyst = new RpcClient((m) => end.send(m));
  end.onMessage((m) => analyst.receive(m));
});
afterAll(async () => {
  await runtime.close();
  await closeAdmins();
  rmSync(root, { recursive: true, force: true });
});

let runs = 0;
async function run(line: string): Promise<Extract<RunResult, { status: 'done' }>> {
  const r = await analyst.invoke('console.run', { profileId: 'p', consoleId: 'console-1', runId: `run-${++runs}`, line });
  if (r.status !== 'done') throw new Error(`${line}: ${r.status}`);
  return r;
}
const reply = (r: RunResult & { status: 'done' }): ReplyNode => r.replies[0]?.reply ?? { t: 'null' };
/** The text of every string in a reply, in order. */
function strings(n: ReplyNode): string[] {
  if (n.t === 'array' || n.t === 'set' || n.t === 'push') return n.items.flatMap(strings);
  if (n.t === 'map' || n.t === 'attribute') return n.entries.flatMap(([k, v]) => [...strings(k), ...strings(v)]);
  return 'v' in n ? [String(n.v).replace(/^"(.*)"$/s, '$1')] : [];
}

describe("an analyst's console: the admin reads the pages show", () => {
  it('runs INFO, as the Overview shows it', async () => {
    const r = await run('INFO server');
    expect(strings(reply(r)).join('\n')).toContain('redis_version:');
  });

  it('runs CONFIG GET with the secrets masked exactly as the Config page masks them', async () => {
    const page = await analyst.invoke('config.get', { profileId: 'p' });
    const secrets = page.params.filter((p) => p.secret).map((p) => p.name);
    expect(secrets).toContain('requirepass');
    expect(page.params.find((p) => p.name === 'requirepass')?.cells[0]).toEqual({ secretSet: true });

    const all = strings(reply(await run('CONFIG GET *')));
    const pairs = new Map<string, string>();
    for (let i = 0; i + 1 < all.length; i += 2) pairs.set(all[i] as string, all[i + 1] as string);
    // Every parameter the page holds back is masked here, and only those: the same list (text/configSecrets.ts).
    const masked = [...pairs].filter(([, v]) => v === MASKED).map(([k]) => k);
    expect(masked.sort()).toEqual(secrets.filter((s) => pairs.has(s)).sort());
    expect(JSON.stringify(all)).not.toContain(PASSWORD);
    expect(strings(reply(await run('CONFIG GET requirepass')))).toEqual(['requirepass', MASKED]);
  });

  it('runs CLIENT LIST, showing the clients as the Clients page does', async () => {
    await admin.client('SETNAME', 'side-connection');
    const page = await analyst.invoke('clients.list', { profileId: 'p' });
    const columns = page.nodes[0]?.clients;
    const at = columns?.name.indexOf('side-connection') ?? -1;
    expect(at).toBeGreaterThanOrEqual(0);
    const text = strings(reply(await run('CLIENT LIST'))).join('\n');
    expect(text).toContain(`addr=${columns?.addr[at]} `);
    expect(text).toContain('name=side-connection');
  });

  it("runs SLOWLOG GET without the values, as the Overview's slow log shows it to analysts", async () => {
    await admin.config('SET', 'slowlog-log-slower-than', '0');
    await admin.set('slow:key', VALUE);
    await admin.config('SET', 'slowlog-log-slower-than', '10000');
    const page = await analyst.invoke('metrics.slowlog', { profileId: 'p', count: 10 });
    const onPage = page.slowlog.find((e) => e.args[1] === 'slow:key');
    expect(onPage).toMatchObject({ args: ['set', 'slow:key'], argsHidden: 1 });

    const r = await run('SLOWLOG GET 10');
    expect(JSON.stringify(r)).not.toContain(VALUE);
    const entries = reply(r);
    if (entries.t !== 'array') throw new Error('not an array');
    const entry = entries.items.find((e) => strings(e).includes('slow:key'));
    const args = entry?.t === 'array' ? entry.items[3] : undefined;
    expect(args && strings(args)).toEqual(['set', 'slow:key', '(1 argument hidden)']);
  });

  it('is still refused CONFIG SET and CLIENT KILL, each refusal naming the page that shows the data', async () => {
    const refused = (line: string) =>
      analyst.invoke('console.run', { profileId: 'p', consoleId: 'console-1', runId: `run-${++runs}`, line }).then(
        () => undefined,
        (e: AppError) => e,
      );
    expect(await refused('CONFIG SET maxmemory 1')).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('the Config page shows every setting'),
    });
    expect(await refused('CLIENT KILL ID 1')).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('the Clients page lists the connected clients'),
    });
    expect(await admin.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);
  });
});
