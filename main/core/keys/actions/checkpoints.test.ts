import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointStore, newRunId, type Checkpoint } from './checkpoints';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function store(): CheckpointStore {
  const dir = mkdtempSync(join(tmpdir(), 'cb-checkpoints-'));
  dirs.push(dir);
  return new CheckpointStore(join(dir, 'key-actions'));
}

function checkpoint(runId: string, updatedAt: number, inFlight: number, errorSamples: string[] = []): Checkpoint {
  return {
    version: 1,
    runId,
    profileId: 'p',
    target: '127.0.0.1:6399/0',
    db: 0,
    op: 'delete',
    selection: { match: Buffer.from('a:*').toString('base64'), ttl: 'any' },
    action: { op: 'delete' },
    pace: { maxLatencyMs: 2, maxReplicaLagBytes: 1 },
    startedAt: 1,
    updatedAt,
    seconds: 0,
    total: 10,
    state: 'running',
    pid: process.pid,
    host: hostname(),
    shards: [{ node: 'n', matched: 0, acted: 0, skipped: 0, errors: 0, scanned: 0, done: false, cursor: '0', inFlight, short: 0 }],
    errorSamples,
  };
}

describe('CheckpointStore', () => {
  it('loads the write-ahead checkpoint saved after the durable one, whole after a longer one, and the durable one when the other is torn', () => {
    const s = store();
    const id = newRunId();
    s.save(checkpoint(id, 100, 0));
    expect(s.load(id).shards[0]?.inFlight).toBe(0);
    // A long write-ahead checkpoint, then a shorter one written over it in place.
    s.save(checkpoint(id, 100, 7, ['x'.repeat(500)]), false);
    s.save(checkpoint(id, 100, 3), false);
    const cp = s.load(id);
    expect(cp.shards[0]?.inFlight).toBe(3);
    expect(cp.errorSamples).toEqual([]);
    // The durable one saved after it (the same ms) wins.
    s.save(checkpoint(id, 100, 0));
    expect(s.load(id).shards[0]?.inFlight).toBe(0);
    // A torn write-ahead file (a power loss) is passed over.
    s.save(checkpoint(id, 200, 5), false);
    writeFileSync(join(s.dir, `${id}.ahead`), '{"version":1,"runId"');
    expect(s.load(id).shards[0]?.inFlight).toBe(0);
    expect(s.resumable('p', new Set()).map((c) => c.shards[0]?.inFlight)).toEqual([0]);
    s.save(checkpoint(id, 300, 4), false);
    expect(s.resumable('p', new Set()).map((c) => c.shards[0]?.inFlight)).toEqual([4]);
    s.remove(id);
    expect(readdirSync(s.dir)).toEqual([]);
    // A directory removed under a running job: the next write-ahead save makes it again.
    rmSync(s.dir, { recursive: true });
    s.save(checkpoint(id, 400, 1), false);
    expect(readdirSync(s.dir)).toEqual([`${id}.ahead`]);
  });
});
