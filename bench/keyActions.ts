import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argList, argValue, loadAverage } from './measure';
import { bigDeleteBench, deleteBench } from './keyActionsDelete';
import { clusterDeleteBench } from './keyActionsCluster';
import { exportBench } from './keyActionsExport';
import { r2 } from './keyActionsRun';

const PARTS = ['delete', 'cluster', 'export', 'rss'];

/**
 * `npm run bench -- key-actions [--keys N] [--big-keys M] [--value-bytes B] [--parts …] [--skip-10m]`:
 * bulk key actions through the installed bin (`cacheboard keys …`, process start to exit), each
 * on private redis-servers, every count checked exactly. `delete`: N keys (1M), the ~11% matching
 * `key:1*` deleted at the default pace and at full speed against the anchor
 * `redis-cli --scan | xargs -n 1000 redis-cli unlink` on an identical seed, a PING probe beside
 * the idle one; `cluster`: the same on a 6-node cluster; `export`: N mixed keys exported and
 * loaded back, compared by DEBUG DIGEST; `rss`: the deletion over M keys (10M), its peak RSS
 * beside the N-key run's (`--skip-10m` leaves it out).
 */
export async function keyActionsBench(): Promise<Record<string, unknown>> {
  const n = argValue('keys', 1_000_000);
  const big = argValue('big-keys', 10_000_000);
  const valueBytes = argValue('value-bytes', 100);
  const parts = argList('parts', PARTS).filter((p) => p !== 'rss' || !process.argv.includes('--skip-10m'));
  const unknown = parts.filter((p) => !PARTS.includes(p));
  if (unknown.length > 0) throw new Error(`--parts: unknown ${unknown.join(', ')} (known: ${PARTS.join(', ')})`);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-key-actions-'));
  const figures: Record<string, unknown> = { load_average_at_start: loadAverage() };
  try {
    const del = parts.includes('delete') ? await deleteBench(dir, n, valueBytes) : undefined;
    if (del) figures['delete'] = del;
    if (parts.includes('cluster')) figures['cluster'] = await clusterDeleteBench(dir, n, valueBytes);
    if (parts.includes('export')) figures['export'] = await exportBench(dir, n);
    if (parts.includes('rss')) {
      // Its own N-key run: the delete part's runs measure CPU time, through a shell that hides the bin's RSS.
      const smallRun = await bigDeleteBench(dir, n, valueBytes);
      const bigRun = await bigDeleteBench(dir, big, valueBytes);
      const small = smallRun['peak_rss_mb'] as number;
      const large = bigRun['peak_rss_mb'] as number;
      figures['rss'] = {
        how: 'peak RSS (VmHWM) of `cacheboard keys delete` at the default pace, same pattern, same value size',
        [`peak_rss_mb_${n}`]: small,
        [`peak_rss_mb_${big}`]: large,
        ratio: r2(large / small),
        big_run: bigRun,
      };
    }
    figures['load_average_at_end'] = loadAverage();
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
