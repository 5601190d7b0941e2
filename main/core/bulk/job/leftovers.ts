import type { Redis } from 'ioredis';
import { closeRedis } from '../../pool/closeRedis';
import { errorText } from './commandRefusal';
import { restorePendingSaves, type PendingSaveResult } from './saveJournal';
import { cleanStaleStaging, describeCleaned, type CleanedDb, type StampedDb } from './staleStaging';
import { listStagingJournals, removeStagingJournal } from './stagingJournal';
import { otherLoads } from './targetLock';

export interface StagingCleanup {
  cleaned: CleanedDb[];
  /** Stamped DBs left alone: their load runs, or cannot be told not to. */
  left: StampedDb[];
  warning?: string;
}

/**
 * Stale staging DBs of one server flushed (staleStaging.ts), then the staging
 * journal entries of that server whose load is over removed: its DB is clean
 * (flushed now, by the load itself, or lost with a server restart).
 */
export async function cleanStagingLeftovers(redis: Redis, where: { host: string; port: number }, journalDir: string): Promise<StagingCleanup> {
  const r = await cleanStaleStaging(redis, where);
  const journals = listStagingJournals(journalDir).filter((j) => j.entry.host === where.host && j.entry.port === where.port);
  if (journals.length > 0) {
    const stamped = new Set(r.left.map((d) => d.marker.jobId));
    const { loads, warning } = await otherLoads(redis, { host: where.host, port: where.port, jobId: '' });
    for (const j of journals) {
      if (stamped.has(j.entry.jobId) || loads.some((l) => l.jobId === j.entry.jobId)) continue;
      // CLIENT LIST refused: a journal of a load that may run is kept, unless its DB was just flushed.
      if (warning !== undefined && !r.cleaned.some((c) => c.jobId === j.entry.jobId)) continue;
      removeStagingJournal(j.file);
    }
  }
  return r;
}

export interface LeftoverReport {
  address: string;
  saves: PendingSaveResult[];
  cleaned: CleanedDb[];
  left: StampedDb[];
  /** One sentence per thing done or not done, for stderr or the server's log. */
  messages: string[];
}

/**
 * What a crashed load left on one server, put right: the `save` config back
 * (restorePendingSaves) and its stale staging DBs flushed. For a CLI command
 * or `serve` starting against a server with a journal entry. `connect` gives a
 * dedicated connection (SELECT and WATCH are used), released when done.
 */
export async function cleanLeftovers(
  journalDir: string,
  server: { host: string; port: number },
  connect: () => Promise<{ redis: Redis; release(): Promise<void> } | Redis>,
): Promise<LeftoverReport> {
  const address = `${server.host}:${server.port}`;
  const out: LeftoverReport = { address, saves: [], cleaned: [], left: [], messages: [] };
  const lease = async (): Promise<{ redis: Redis; release(): Promise<void> }> => {
    const got = await connect();
    return 'release' in got ? got : { redis: got, release: () => closeRedis(got) };
  };
  out.saves = await restorePendingSaves(journalDir, () => lease(), server);
  for (const s of out.saves) if (s.action !== 'already-restored') out.messages.push(s.message);
  let c: { redis: Redis; release(): Promise<void> } | undefined;
  try {
    c = await lease();
    const r = await cleanStagingLeftovers(c.redis, server, journalDir);
    out.cleaned = r.cleaned;
    out.left = r.left;
    for (const d of r.cleaned) out.messages.push(describeCleaned(d, address));
    for (const d of r.left) {
      if (d.running === 'unknown')
        out.messages.push(
          `Staging DB ${d.db} on ${address} holds load ${d.marker.jobId}'s marker, but whether that load still runs cannot be told (${r.warning ?? 'CLIENT LIST refused'}): left alone`,
        );
    }
  } catch (err) {
    out.messages.push(`Could not look for stale staging DBs on ${address}: ${errorText(err)}`);
  } finally {
    await c?.release().catch(() => undefined);
  }
  return out;
}
