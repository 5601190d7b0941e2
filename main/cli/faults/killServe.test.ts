import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminClient, eventually } from '../../../testing/redis';
import { STAGING_MARKER_KEY, parseMarker } from '../../core/bulk/job/stagingMarker';
import { useServeKit } from '../serveTestKit';
import { expectNothingLeft, SAVE } from './faultTestKit';

/*
 * Fault case: `cacheboard serve` killed with SIGKILL during a load started from the
 * Bulk load page; its next start restores save, flushes the stamped staging DB and
 * writes both to the audit log.
 */
const { redis, startServe, apiClient, loadHeldMidway } = useServeKit('cb-fault-serve-');

// Real processes on a shared machine: each case gets a minute.
describe('kill -9 of cacheboard serve', { timeout: 60_000 }, () => {
  it('during a page-started load: the next start cleans up what it left, on the record', async () => {
    const serve = await startServe();
    const admin = await adminClient(redis());
    try {
      await loadHeldMidway(serve);
      serve.child.kill('SIGKILL');
      await serve.exited;
    } finally {
      await admin.client('UNPAUSE');
    }
    expect(await eventually(async () => !String(await admin.client('LIST')).includes('name=cacheboard:bulk:load_'), 10_000)).toBe(true);
    expect(((await admin.config('GET', 'save')) as string[])[1]).toBe('');
    await admin.select(15);
    expect(parseMarker(await admin.get(STAGING_MARKER_KEY))?.phase).toBe('loading');
    await admin.select(0);

    const again = await startServe(serve.dataDir);
    try {
      expect(await eventually(async () => ((await admin.config('GET', 'save')) as string[])[1] === SAVE, 15_000)).toBe(true);
      expect(await eventually(() => again.output().includes('Flushed stale staging DB 15'), 15_000)).toBe(true);
      // What the Bulk load page shows (LeftoversNotice.tsx).
      const api = await apiClient(again.port);
      const { cleanups } = (await api.call('bulk.leftovers', {})) as { cleanups: { db?: number; keys?: number; message: string }[] };
      api.ws.close();
      expect(cleanups).toContainEqual(
        expect.objectContaining({ db: 15, keys: expect.any(Number), message: expect.stringContaining('Flushed stale staging DB 15') }),
      );
      expect(cleanups.some((c) => c.message.startsWith('Restored automatic saves'))).toBe(true);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
    const audit = readFileSync(join(serve.dataDir, 'audit.log'), 'utf8');
    expect(audit).toMatch(/"action":"bulk\.cleanup".*flushed stale staging DB 15/);
    await expectNothingLeft(redis(), serve.dataDir, { kind: 'old' });
  });
});
