import type { StartupCleanup } from '../app/schemas/bulk';
import type { AuditLog } from './core/audit/auditLog';
import { cleanLeftovers } from './core/bulk/job/leftovers';
import { journalConnection } from './core/bulk/job/journalConnection';
import { describeCleaned } from './core/bulk/job/staleStaging';
import { journaledServers } from './core/bulk/job/stagingJournal';
import type { PoolApi, StoredProfile } from './core/pool/types';

/**
 * At the start of `serve` or the desktop app: for every server a journal names
 * (a load that died with saves off or a staging DB stamped), put `save` back
 * and flush its stale staging DBs (leftovers.ts). Only servers we have a
 * profile for can be reached (credentials live in the profile). Said in the
 * server's log and written to the audit log; never throws.
 */
export async function cleanStartupLeftovers(
  journalDir: string,
  profiles: () => readonly StoredProfile[],
  pool: Pick<PoolApi, 'dedicated' | 'masters'>,
  audit: AuditLog,
  /** Each thing put right, as the Bulk load page lists it (bulk.leftovers). */
  record: (c: StartupCleanup) => void = () => undefined,
): Promise<void> {
  for (const server of journaledServers(journalDir)) {
    try {
      const r = await cleanLeftovers(journalDir, server, () => journalConnection(profiles(), pool, server.host, server.port));
      for (const m of r.messages) console.log(`leftovers: ${m}`);
      for (const c of r.cleaned) {
        record({ at: Date.now(), address: r.address, db: c.db, keys: c.keys, message: describeCleaned(c, r.address) });
        audit.append({
          user: 'local',
          action: 'bulk.cleanup',
          target: `${r.address}/${c.db}`,
          outcome: 'ok',
          detail: `flushed stale staging DB ${c.db} (${c.keys} keys) of load ${c.jobId} from ${c.host}`,
        });
      }
      for (const s of r.saves) {
        if (s.action !== 'restored') continue;
        record({ at: Date.now(), address: r.address, message: s.message });
        audit.append({ user: 'local', action: 'bulk.cleanup', target: r.address, outcome: 'ok', detail: s.message });
      }
    } catch (e) {
      console.error(`leftovers: ${server.host}:${server.port}: ${String(e)}`);
    }
  }
}
