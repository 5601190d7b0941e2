import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatHostPort } from '../../app/hostPort';
import { AuditLog } from '../core/audit/auditLog';
import { cleanLeftovers, type LeftoverReport } from '../core/bulk/job/leftovers';
import { journaledServers } from '../core/bulk/job/stagingJournal';
import type { Pool } from '../core/pool/pool';
import { plainSpecAt, topologyKind } from '../core/pool/topology';
import type { ProfileSpec } from '../core/pool/types';
import { singleProfilePool } from '../core/pool/singleProfilePool';
import { dataDirFrom } from './dataDir';

/**
 * The journaled servers (save or staging journal, saveJournal.ts and
 * stagingJournal.ts) that the flags' profile reaches: its own address, or for
 * a cluster or sentinel profile one of the masters the pool finds. Costs a
 * directory read when there is no journal, which is the usual case.
 */
async function journaledTargets(
  spec: ProfileSpec,
  pool: Pick<Pool, 'masters'>,
  profileId: string,
  journalDir: string,
): Promise<{ host: string; port: number }[]> {
  const servers = journaledServers(journalDir);
  if (servers.length === 0) return [];
  if (topologyKind(spec) === 'standalone') return servers.filter((s) => s.host === spec.host && s.port === spec.port);
  const masters = new Set((await pool.masters(profileId).catch(() => [])).map((m) => m.address));
  return servers.filter((s) => masters.has(formatHostPort(s)));
}

/**
 * What a killed load left on the server a CLI command connects to, put right
 * before the command runs: `save` restored, stale staging DBs flushed. Said on
 * stderr (stdout stays the command's own, --json included) and written to the
 * audit log. Never fails the command: a cleanup that cannot run says why.
 */
export async function cleanCliLeftovers(
  spec: ProfileSpec,
  pool: Pick<Pool, 'masters'>,
  profileId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LeftoverReport[]> {
  const dataDir = dataDirFrom(env);
  const journalDir = join(dataDir, 'journal');
  const out: LeftoverReport[] = [];
  try {
    for (const server of await journaledTargets(spec, pool, profileId, journalDir)) {
      const r = await cleanLeftovers(journalDir, server, async () => {
        const p = singleProfilePool(plainSpecAt(spec, server), profileId);
        try {
          const c = await p.dedicated(profileId, { purpose: 'bulk' });
          return {
            redis: c.redis,
            release: async () => {
              await c.release();
              await p.shutdown();
            },
          };
        } catch (err) {
          await p.shutdown();
          throw err;
        }
      });
      for (const m of r.messages) process.stderr.write(`${m}\n`);
      auditLeftovers(dataDir, env, r);
      out.push(r);
    }
  } catch (err) {
    process.stderr.write(`Could not check for what an earlier load left behind: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  return out;
}

/** Each flushed staging DB and each restored `save` on the record, as the server's own cleanups are. */
export function auditLeftovers(dataDir: string, env: NodeJS.ProcessEnv, r: LeftoverReport): void {
  if (r.cleaned.length === 0 && !r.saves.some((s) => s.action === 'restored')) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const log = new AuditLog(join(dataDir, 'audit.log'));
  const user = `cli:${env.USER ?? env.LOGNAME ?? 'unknown'}`;
  for (const c of r.cleaned) {
    log.append({
      user,
      action: 'bulk.cleanup',
      target: `${r.address}/${c.db}`,
      outcome: 'ok',
      detail: `flushed stale staging DB ${c.db} (${c.keys} keys) of load ${c.jobId} from ${c.host}`,
    });
  }
  for (const s of r.saves) {
    if (s.action === 'restored') log.append({ user, action: 'bulk.cleanup', target: r.address, outcome: 'ok', detail: s.message });
  }
}
