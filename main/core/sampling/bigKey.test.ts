import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { fill, sampleOf } from './samplingTestKit';

// Anything our connection runs for 10 ms or more lands in the SLOWLOG.
const redis = useRedis({ args: ['--slowlog-log-slower-than', '10000'] });
afterAll(closeAdmins);

/** SLOWLOG entries from the sampling connection: [id, time, µs, args, addr, name]. */
async function slowSamplingCommands(): Promise<string[]> {
  const admin = await adminClient(redis());
  const log = (await admin.call('SLOWLOG', 'GET', '100')) as [number, number, number, string[], string, string][];
  return log.filter((e) => e[5] === 'cacheboard:sampling:test').map((e) => `${e[3].join(' ')} (${e[2]} µs)`);
}

describe('a key with a million members', () => {
  it('does not stall a census: MEMORY USAGE samples it; SAMPLES 0 (exact) would walk it', async () => {
    const admin = await adminClient(redis());
    // 200 SADDs of 5,000 members from one script: the million-member set in about a second.
    await admin.eval("local t = {} for b = 0, 199 do for i = 1, 5000 do t[i] = b * 5000 + i end redis.call('SADD', KEYS[1], unpack(t)) end", 1, 'huge:set');
    await fill(admin, 500, (p, i) => p.set(`k:${i}`, 'v'));
    await admin.call('SLOWLOG', 'RESET');

    const { report } = await sampleOf(redis(), { method: 'census' });
    expect(report.topByLength[0]).toMatchObject({ key: { text: 'huge:set' }, type: 'set', encoding: 'hashtable', length: 1_000_000 });
    expect(await slowSamplingCommands()).toEqual([]);

    // The same census with exact memory is what the default protects against: by plain
    // commands its MEMORY USAGE is slow, by script the EVALSHA of the page holding it (SAMPLES 0).
    const exact = await sampleOf(redis(), { method: 'census', memorySamples: 0 }, { tuning: { scripts: false } });
    expect(exact.report.topByLength[0]?.key.text).toBe('huge:set');
    expect((await slowSamplingCommands()).join('\n')).toMatch(/MEMORY USAGE huge:set SAMPLES 0/);
    await admin.call('SLOWLOG', 'RESET');
    await sampleOf(redis(), { method: 'census', memorySamples: 0 });
    expect((await slowSamplingCommands()).join('\n')).toMatch(/^EVALSHA [0-9a-f]{40} 0 0 0 /m);
  });
});
