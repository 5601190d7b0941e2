import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { cleanLeftovers } from '../core/bulk/job/leftovers';
import { journalFile, readJournal } from '../core/bulk/job/saveJournal';
import { findStampedDbs, type StampedDb } from '../core/bulk/job/staleStaging';
import { cleanCommand } from '../core/bulk/job/stagingHold';
import { listStagingJournals } from '../core/bulk/job/stagingJournal';
import { parseClientList } from '../core/redis/clientList';
import { serverIdentityOfText } from '../core/redis/serverIdentity';
import { serverTitle } from '../../app/redis/serverTitle';
import { dbKeyCounts } from '../core/bulk/job/serverFacts';
import { unlessRefused } from '../core/redis/refusal';
import { restrictionLine, type Restriction } from '../../app/schemas/restrictions';
import { SCRATCH_ROOT } from '../core/trials/scratch';
import { auditLeftovers } from './cliLeftovers';
import { CLI_PROFILE, cliPool } from './cliPool';
import { dataDirFrom } from './dataDir';
import { parseFlags } from './flags';
import { connectionFlags, specFromFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS } from './topologyFlags';

export const DOCTOR_HELP = `Usage: cacheboard doctor --url redis://[user:pass@]host:port [--fix] [--json]

What Cacheboard has left on a server (each master of a cluster or sentinel set):
  journal      entries in the data folder's journal for it: automatic saves a
               load turned off, notify-keyspace-events a swap load turned on
               (to count writes to the live DB), staging DBs a load stamped
               (load, serve and the app put these right at their next start
               against that server)
  staging DBs  DBs holding a load's staging marker, with its job, host, age and
               key count, and whether that load still runs
  scratch      keys under ${SCRATCH_ROOT} (pipeline and audience trials), per DB;
               found by SCAN over every non-empty DB
  connections  our named connections (CLIENT LIST name cacheboard:*)

--fix puts back the save config and notify-keyspace-events, flushes the
staging DBs whose load is over (only while their marker still matches; a DB
without the marker is never touched, nor one a failed load left "held"
because other clients wrote into it: look at it, then empty it with the
command shown) and unlinks scratch keys when no trial or audience query is connected. Connections are
only listed. Exit code 0 when nothing stale is left, 1 otherwise.

${TOPOLOGY_HELP}The URL may also come from REDIS_URL. Data folder: CACHEBOARD_DATA_DIR.
`;

interface JournalRow {
  kind: 'save' | 'notify' | 'staging';
  file: string;
  jobId: string;
  at: number;
  db?: number;
  original?: string;
}

interface ServerReport {
  address: string;
  /** Who answers there: "Valkey 8.0.1", "Redis 7.0.15" (INFO server); '' when INFO server is refused. */
  server: string;
  journal: JournalRow[];
  stagingDbs: { db: number; keys: number; jobId: string; host: string; pid: number; ageSeconds: number; phase: string; running: string }[];
  scratch: { db: number; keys: number }[];
  connections: { name: string; addr: string }[];
  /** What --fix did. */
  fixed: string[];
  /** Why something was left. */
  notes: string[];
  /** Commands the server refused, and what was not checked because of them. */
  restrictions: Restriction[];
}

const SCAN_COUNT = 1000;

/** Keys under SCRATCH_ROOT in `db` (SCAN, never KEYS), and optionally UNLINKed. */
async function scanScratch(redis: Redis, db: number, unlink: boolean): Promise<number> {
  await redis.select(db);
  let cursor = '0';
  let n = 0;
  do {
    const [next, keys] = await redis.scanBuffer(cursor, 'MATCH', `${SCRATCH_ROOT}*`, 'COUNT', SCAN_COUNT);
    cursor = String(next);
    n += keys.length;
    if (unlink && keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
  return n;
}

function journalRows(journalDir: string, host: string, port: number): JournalRow[] {
  const rows: JournalRow[] = [];
  for (const kind of ['save', 'notify'] as const) {
    const file = journalFile(journalDir, host, port, kind === 'save' ? 'save' : 'notify-keyspace-events');
    const e = readJournal(file);
    if (e !== undefined && e.host === host && e.port === port) rows.push({ kind, file, jobId: e.jobId, at: e.at, original: e.original });
  }
  for (const { file: f, entry } of listStagingJournals(journalDir)) {
    if (entry.host === host && entry.port === port) rows.push({ kind: 'staging', file: f, jobId: entry.jobId, at: entry.at, db: entry.db });
  }
  return rows;
}

function stagingRow(d: StampedDb, now: number): ServerReport['stagingDbs'][number] {
  const m = d.marker;
  return {
    db: d.db,
    keys: d.keys,
    jobId: m.jobId,
    host: m.host,
    pid: m.pid,
    ageSeconds: Math.round((now - m.startedAt) / 1000),
    phase: m.phase,
    running: d.running,
  };
}

async function examine(redis: Redis, where: { host: string; port: number }, journalDir: string, fix: boolean): Promise<ServerReport> {
  const address = `${where.host}:${where.port}`;
  const id = await redis.info('server').then(serverIdentityOfText, () => undefined);
  const server = id === undefined ? '' : serverTitle(id.name, id.version);
  const r: ServerReport = { address, server, journal: [], stagingDbs: [], scratch: [], connections: [], fixed: [], notes: [], restrictions: [] };
  const own = String(await redis.client('ID'));
  const list = await unlessRefused(redis.client('LIST'), ['CLIENT', 'LIST'], (refused) =>
    r.restrictions.push({
      command: refused.command,
      effect: 'our connections are not listed, and scratch keys are not unlinked (a running trial cannot be told)',
    }),
  );
  r.connections = parseClientList(String(list ?? ''))
    .clients.filter((c) => c.id !== own && c.name.startsWith('cacheboard'))
    .map(({ name, addr }) => ({ name, addr }));
  // Trials, audience trials and the audience page's live queries all write scratch keys under SCRATCH_ROOT.
  const trialRunning = list === undefined || r.connections.some((c) => c.name.startsWith('cacheboard:trial:') || c.name.startsWith('cacheboard:audience:'));

  const found = await findStampedDbs(redis, where);
  if (found.warning !== undefined) r.notes.push(found.warning);
  const now = Date.now();
  r.stagingDbs = found.dbs.map((d) => stagingRow(d, now));
  for (const d of found.dbs) {
    if (d.marker.phase === 'held')
      r.notes.push(
        `Staging DB ${d.db}: left by load ${d.marker.jobId} because it holds keys that load did not write; look at it, then empty it with: ${cleanCommand(where, d.db, found.version)}`,
      );
  }
  for (const d of found.dbs)
    if (d.running !== 'no' && d.marker.phase !== 'held')
      r.notes.push(`Staging DB ${d.db}: load ${d.marker.jobId} ${d.running === 'yes' ? 'is still running' : 'may still be running (cannot tell)'}; left alone`);

  if (found.infoRefused !== undefined) {
    r.restrictions.push({ command: found.infoRefused.command, effect: "DBs 0-15 were looked at (by DBSIZE), not the server's own list of DBs" });
  }
  const { counts } = await dbKeyCounts(redis);
  for (const [db, keys] of [...counts].sort((a, b) => a[0] - b[0])) {
    if (keys === 0) continue;
    const n = await scanScratch(redis, db, fix && !trialRunning);
    if (n === 0) continue;
    if (fix && !trialRunning) r.fixed.push(`Unlinked ${n} scratch keys under ${SCRATCH_ROOT} in DB ${db}`);
    else r.scratch.push({ db, keys: n });
  }
  if (fix && trialRunning && r.scratch.length > 0) r.notes.push('A trial is connected: its scratch keys were left (they carry a TTL)');
  r.journal = journalRows(journalDir, where.host, where.port);
  return r;
}

/** `cacheboard doctor`: see DOCTOR_HELP. */
export async function doctor(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const values = parseFlags(argv, { url: { type: 'string' }, ...TOPOLOGY_OPTIONS, fix: { type: 'boolean' }, json: { type: 'boolean' } }, DOCTOR_HELP);
  const spec = specFromFlags(connectionFlags(values, env));
  const fix = values.fix === true;
  const dataDir = dataDirFrom(env);
  const journalDir = join(dataDir, 'journal');
  // Not withCliPool: its cleanup at start would hide what the doctor is asked to list.
  const pool = cliPool(spec);
  const reports: ServerReport[] = [];
  try {
    for (const m of await pool.masters(CLI_PROFILE)) {
      const [host, port] = splitAddress(m.address);
      const connect = () => pool.dedicated(CLI_PROFILE, { purpose: 'bulk', address: m.address });
      const fixed: string[] = [];
      if (fix) {
        const done = await cleanLeftovers(journalDir, { host, port }, connect);
        auditLeftovers(dataDir, env, done);
        fixed.push(...done.messages);
      }
      const c = await connect();
      try {
        const r = await examine(c.redis, { host, port }, journalDir, fix);
        r.fixed.unshift(...fixed);
        reports.push(r);
      } finally {
        await c.release();
      }
    }
  } finally {
    await pool.shutdown();
  }
  const stale = reports.some((r) => r.journal.length > 0 || r.stagingDbs.some((d) => d.running === 'no') || r.scratch.length > 0);
  if (values.json) process.stdout.write(`${JSON.stringify({ servers: reports, clean: !stale })}\n`);
  else process.stdout.write(human(reports, stale));
  return stale ? 1 : 0;
}

function splitAddress(address: string): [string, number] {
  const i = address.lastIndexOf(':');
  const host = address.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return [host, Number(address.slice(i + 1))];
}

function human(reports: ServerReport[], stale: boolean): string {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(r.server === '' ? r.address : `${r.address}  ${r.server}`);
    for (const f of r.fixed) lines.push(`  fixed: ${f}`);
    for (const j of r.journal) {
      const what = j.kind === 'staging' ? `staging DB ${j.db ?? '?'}` : `${j.kind === 'save' ? 'save' : 'notify-keyspace-events'} "${j.original ?? ''}"`;
      lines.push(`  journal: ${j.kind} ${what} of load ${j.jobId} (${j.file})`);
    }
    for (const d of r.stagingDbs) {
      lines.push(`  staging DB ${d.db}: ${d.keys} keys, load ${d.jobId} from ${d.host} pid ${d.pid}, ${d.ageSeconds} s ago, ${d.phase}, running: ${d.running}`);
    }
    for (const s of r.scratch) lines.push(`  scratch: ${s.keys} keys under ${SCRATCH_ROOT} in DB ${s.db}`);
    for (const c of r.connections) lines.push(`  connection: ${c.name} from ${c.addr}`);
    for (const n of r.notes) lines.push(`  note: ${n}`);
    for (const x of r.restrictions) lines.push(`  ${restrictionLine(x)}`);
  }
  lines.push(stale ? 'Something Cacheboard left behind is still there.' : 'Nothing stale left behind.');
  return `${lines.join('\n')}\n`;
}
