import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminClient, eventually } from '../../testing/redis';
import { useServeKit } from './serveTestKit';

const { redis, startServe, loadHeldMidway } = useServeKit('cb-serve-signal-');

describe('cacheboard serve stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)('%s mid-load cancels the load, cleans up as a cancel does, and exits 0', async (signal) => {
    const serve = await startServe();
    const admin = await adminClient(redis());
    const staging = await adminClient(redis(), { db: 15 });
    try {
      const events = await loadHeldMidway(serve);
      serve.child.kill(signal);
      await new Promise((r) => setTimeout(r, 300));
      await admin.client('UNPAUSE');

      expect(await serve.exited).toEqual({ code: 0, signal: null });
      expect(serve.output()).toContain(`${signal}: shutting down`);
      expect(((await admin.config('GET', 'save')) as string[])[1]).toBe('900 1');
      expect(await admin.get('live')).toBe('before');
      expect(await admin.dbsize()).toBe(1);
      expect(await staging.dbsize()).toBe(0);
      expect(readdirSync(join(serve.dataDir, 'journal'))).toEqual([]);
      // The page saw the load end as cancelled, before the socket closed.
      expect(events().at(-1)).toMatchObject({ kind: 'report', report: { outcome: 'cancelled', swapped: false } });
    } finally {
      await admin.client('UNPAUSE');
      serve.child.kill('SIGKILL');
    }
  });

  it('a second SIGTERM while the cleanup waits leaves at once with 143; the next start puts save back from the journal', async () => {
    const serve = await startServe();
    const admin = await adminClient(redis());
    try {
      await loadHeldMidway(serve);
      serve.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      serve.child.kill('SIGTERM');
      // Well before the 10 s pause ends: nothing waited for the cleanup.
      const started = Date.now();
      expect(await serve.exited).toEqual({ code: 143, signal: null });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(serve.output()).toContain('SIGTERM again: leaving now');
    } finally {
      await admin.client('UNPAUSE');
      serve.child.kill('SIGKILL');
    }
    expect(((await admin.config('GET', 'save')) as string[])[1]).toBe('');
    const again = await startServe(serve.dataDir);
    try {
      expect(await eventually(async () => ((await admin.config('GET', 'save')) as string[])[1] === '900 1', 10_000)).toBe(true);
      expect(await eventually(() => readdirSync(join(serve.dataDir, 'journal')).length === 0, 10_000)).toBe(true);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });
});
