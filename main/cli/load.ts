import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { LoadEvent, LoadReport } from '../../app/schemas/bulk';
import { restorePendingSaves } from '../core/bulk/job/saveJournal';
import { AuditLog } from '../core/audit/auditLog';
import { loadSummary } from '../core/audit/loadSummary';
import { AppError } from '../../app/errors';
import { refuseClusterPlan, SWAP_REFUSED } from '../core/bulk/cluster/clusterLoadJob';
import { prepareLoad } from '../core/bulk/prepareLoad';
import { loadSpec, startLoad } from '../core/bulk/startLoad';
import { CLI_PROFILE, cliPool } from './cliPool';
import { entryPoints, plainSpecAt } from '../core/pool/topology';
import { dataDirFrom } from './dataDir';
import { withCliJob } from './cliJob';
import { parseLoadArgs } from './loadArgs';
import { specFromFlags } from './topologyFlags';
import { renderProgress } from './progressBar';
import { restrictionLine } from '../../app/schemas/restrictions';
import { formatBytes } from '../core/bulk/job/preflight';

/** The JSON `--json` prints: a stable interface for cron jobs. */
export function reportJson(r: LoadReport) {
  return {
    records: r.records,
    commands: r.commands,
    errors: r.errors,
    seconds: r.seconds,
    ops_per_sec: r.opsPerSec,
    records_per_sec: r.recordsPerSec,
    mode: r.mode,
    swapped: r.swapped,
    bgsave_seconds: r.bgsave?.seconds ?? null,
    outcome: r.outcome,
    ...(r.evictedKeys === undefined ? {} : { evicted_keys: r.evictedKeys }),
    ...(r.keyCounts ? { new_keys: r.keyCounts.new, live_keys: r.keyCounts.live } : {}),
    ...(r.liveCheck
      ? {
          live_check: {
            db: r.liveCheck.db,
            keys_before: r.liveCheck.keysBefore,
            keys_after: r.liveCheck.keysAfter,
            sampled: r.liveCheck.sampled,
            missing: r.liveCheck.missing,
            unchanged: r.liveCheck.unchanged,
          },
        }
      : {}),
    ...(r.liveWrites
      ? {
          live_writes: {
            db: r.liveWrites.db,
            writes: r.liveWrites.writes ?? null,
            discarded: r.liveWrites.discarded,
            keys: r.liveWrites.keys,
            ...(r.liveWrites.note === undefined ? {} : { note: r.liveWrites.note }),
          },
        }
      : {}),
    ...(r.stagingLeft
      ? { staging_left: { db: r.stagingLeft.db, keys: r.stagingLeft.keys, reason: r.stagingLeft.reason, clean_command: r.stagingLeft.cleanCommand } }
      : {}),
    // The error object, as the other commands' --json prints it; its field is the flag (allowEmpty: allow-empty).
    ...(r.error ? { error: r.error.field === undefined ? r.error : { ...r.error, field: flagOf(r.error.field) } } : {}),
    ...(r.staleCleaned
      ? { stale_cleaned: r.staleCleaned.map((c) => ({ db: c.db, keys: c.keys, job_id: c.jobId, host: c.host, started_at: c.startedAt, phase: c.phase })) }
      : {}),
    ...(r.nodes ? { nodes: r.nodes } : {}),
    ...(r.redirects ? { redirects: r.redirects } : {}),
    ...(r.replicaLag ? { replica_lag: r.replicaLag.map((l) => ({ addr: l.addr, max_lag_bytes: l.maxLagBytes, max_lag_seconds: l.maxLagSeconds })) } : {}),
    ...(r.replicas ? { replicas: r.replicas.map((x) => ({ addr: x.addr, offset: x.offset, caught_up: x.acked, behind_bytes: x.behind ?? null })) } : {}),
    // What was not protected, each with the command the server refused or lacks.
    ...(r.restrictions ? { restrictions: r.restrictions } : {}),
  };
}

/** The contract's option name as the CLI spells its flag: allowEvictionRisk -> allow-eviction-risk. */
function flagOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function summary(r: LoadReport): string {
  const lines = [
    `${r.outcome === 'ok' ? 'Loaded' : r.outcome === 'cancelled' ? 'Cancelled' : 'FAILED'}: ${r.file} -> db${r.targetDb} (${r.mode})`,
    `  records ${r.records}, commands ${r.commands}, errors ${r.errors}, ${r.seconds.toFixed(2)} s, ${Math.round(r.recordsPerSec)} records/s (${Math.round(r.opsPerSec)} commands/s)`,
  ];
  if (r.stagingDb !== undefined) lines.push(`  staged in db${r.stagingDb}, swapped: ${r.swapped ? 'yes' : 'no'}`);
  if (r.keyCounts) lines.push(`  keys: new ${r.keyCounts.new}, live ${r.keyCounts.live}`);
  if (r.liveCheck)
    lines.push(
      `  live db${r.liveCheck.db}: ${r.liveCheck.unchanged ? 'unchanged' : 'CHANGED'} (${r.liveCheck.keysBefore} keys before, ${r.liveCheck.keysAfter} after; ${r.liveCheck.missing} of ${r.liveCheck.sampled} sampled keys gone)`,
    );
  if (r.liveWrites) {
    const lw = r.liveWrites;
    const counted =
      lw.writes === undefined
        ? `not counted (${lw.note ?? 'unknown'})`
        : `${lw.writes} by other clients during the load, ${lw.discarded} discarded by the switch`;
    lines.push(`  writes to live db${lw.db}: ${counted}${lw.keys.length > 0 ? ` (first keys: ${lw.keys.join(', ')})` : ''}`);
  }
  if (r.stagingLeft)
    lines.push(
      `  staging db${r.stagingLeft.db} LEFT with ${r.stagingLeft.keys} keys: ${r.stagingLeft.reason}; once you have looked, empty it with: ${r.stagingLeft.cleanCommand}`,
    );
  if (r.evictedKeys !== undefined && r.evictedKeys > 0) lines.push(`  evicted by Redis during the load: ${r.evictedKeys} keys`);
  if (r.verify) lines.push(`  verify: replies ${r.verify.replies ? 'ok' : 'MISMATCH'}, keys ${r.verify.keys}${r.verify.note ? ` (${r.verify.note})` : ''}`);
  if (r.bgsave) lines.push(`  bgsave: ${r.bgsave.status} in ${r.bgsave.seconds.toFixed(2)} s`);
  for (const l of r.replicaLag ?? [])
    lines.push(`  replica ${l.addr}: lagged up to ${formatBytes(l.maxLagBytes)} (${l.maxLagSeconds} s since its ack) during the load`);
  for (const rep of r.replicas ?? [])
    lines.push(
      `  replica ${rep.addr}: offset ${rep.offset} ${rep.acked ? 'acked (caught up)' : `NOT acked${rep.behind === undefined ? '' : ` (${formatBytes(rep.behind)} behind)`}`}`,
    );
  if (r.saveConfig)
    lines.push(
      `  save config "${r.saveConfig.original}" ${r.saveConfig.restored ? 'restored' : 'NOT restored'}${r.saveConfig.note ? ` (${r.saveConfig.note})` : ''}`,
    );
  for (const n of r.nodes ?? []) lines.push(`  master ${n.address}: ${n.commands} commands, ${n.errors} errors, ${n.redirected} redirected`);
  if (r.restrictions !== undefined) {
    lines.push('  not protected:');
    for (const x of r.restrictions) lines.push(`    ${restrictionLine(x)}`);
  }
  for (const w of r.warnings) lines.push(`  warning: ${w}`);
  for (const e of r.firstErrors) lines.push(`  ${e.position}: ${e.message}`);
  if (r.error) lines.push(`  ${r.error.message}`);
  return `${lines.join('\n')}\n`;
}

/** `cacheboard load`: exit code 0 on success, 1 on failure, 128 + the signal's number when cancelled by Ctrl-C (130), SIGTERM (143) or SIGHUP (129). */
export async function load(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseLoadArgs(argv, env);
  const profile = specFromFlags(args);
  const prepared = prepareLoad({
    ...args,
    path: args.file,
    fileLabel: basename(args.file),
    targetDb: profile.db,
    requireConfirm: false,
  });
  const cluster = profile.topology?.kind === 'cluster';
  if (cluster) {
    if (!args.modeGiven) {
      throw new AppError(
        'VALIDATION',
        `A Redis Cluster has no default mode: pass --mode merge (write into the live keys) or --mode flush (FLUSHDB every master first); ${SWAP_REFUSED.split(':')[0]}`,
        'mode',
      );
    }
    refuseClusterPlan(prepared.mode, prepared.targetDb);
  }
  const spec = await loadSpec(profile);
  const journalDir = join(dataDirFrom(env), 'journal');
  const pool = cliPool(spec);
  const start = startLoad(spec, prepared, { pool, profileId: CLI_PROFILE, journalDir, clusterName: entryPoints(spec).join(',') });
  const job = {
    json: args.json,
    // Said with --json too: stdout holds the JSON report alone, stderr what the stop does.
    stopNote: 'Cancelling: discarding staging and restoring the save config…',
    progress: (e: LoadEvent) => (e.kind === 'progress' ? renderProgress(e) : null),
    lines: (e: LoadEvent) => (e.kind === 'phase' ? `[${e.phase}] ${e.message}` : e.kind === 'warning' ? `warning: ${e.message}` : null),
  };
  try {
    return await withCliJob(job, async ({ run, cancelledCode }) => {
      const report = await run(async (emit, signal) => {
        // A crash during an earlier load may have left automatic saves off: put them back first.
        for (const note of await restorePendingSaves(journalDir, async (host, port) => {
          const p = cliPool(plainSpecAt(spec, { host, port }));
          const c = await p.dedicated(CLI_PROFILE, { purpose: 'bulk' });
          return {
            redis: c.redis,
            release: async () => {
              await c.release();
              await p.shutdown();
            },
          };
        })) {
          process.stderr.write(`${note.message}\n`);
        }
        return start.run(`load_cli${process.pid}`, emit, signal);
      });
      auditCliLoad(env, report, start.target);
      if (args.json) process.stdout.write(`${JSON.stringify(reportJson(report))}\n`);
      else process.stdout.write(summary(report));
      if (report.outcome === 'cancelled') return cancelledCode();
      return report.outcome === 'ok' ? 0 : 1;
    });
  } finally {
    await pool.shutdown();
  }
}

/** The same audit log the server keeps, so a load from a shell is on the record too. */
function auditCliLoad(env: NodeJS.ProcessEnv, report: LoadReport, target: string): void {
  const dir = dataDirFrom(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const user = `cli:${env.USER ?? env.LOGNAME ?? 'unknown'}`;
  new AuditLog(join(dir, 'audit.log')).append({ user, action: `bulk.${report.mode}`, target, outcome: report.outcome, ...loadSummary(report) });
}
