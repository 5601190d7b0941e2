import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteFileSync } from '../../pool/atomicWrite';
import { CONFIG_JOURNAL_NAME, readJournal } from './saveJournal';

/**
 * Beside the save journal (saveJournal.ts), one file per swap load that stamped
 * a staging DB: `<journalDir>/staging-<host>_<port>-<jobId>.json`. Written
 * before the marker, removed once the staging DB is flushed. A file left
 * behind says "this server may hold a stale staging DB", which is what makes
 * the check at a CLI command's start cheap: no file, no look at the server.
 * (One file per load, not a field of the save journal: loads into different
 * DBs of one server share that one.)
 */
export interface StagingJournalEntry {
  host: string;
  port: number;
  jobId: string;
  db: number;
  /** Epoch ms the DB was stamped. */
  at: number;
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9.-]/g, '_');
}

export function stagingJournalFile(journalDir: string, host: string, port: number, jobId: string): string {
  return join(journalDir, `staging-${safe(host)}_${port}-${safe(jobId)}.json`);
}

export function writeStagingJournal(journalDir: string, e: StagingJournalEntry): string {
  mkdirSync(journalDir, { recursive: true, mode: 0o700 });
  const file = stagingJournalFile(journalDir, e.host, e.port, e.jobId);
  atomicWriteFileSync(file, `${JSON.stringify(e, null, 2)}\n`);
  return file;
}

export function removeStagingJournal(file: string): void {
  rmSync(file, { force: true });
}

function readStaging(file: string): StagingJournalEntry | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const { host, port, jobId, db, at } = o;
    if (typeof host !== 'string' || typeof port !== 'number' || typeof jobId !== 'string' || typeof db !== 'number') return undefined;
    return { host, port, jobId, db, at: typeof at === 'number' ? at : 0 };
  } catch {
    return undefined;
  }
}

/** Every staging journal entry, with its file. */
export function listStagingJournals(journalDir: string): { file: string; entry: StagingJournalEntry }[] {
  const out: { file: string; entry: StagingJournalEntry }[] = [];
  for (const name of namesIn(journalDir)) {
    if (!/^staging-.+\.json$/.test(name)) continue;
    const file = join(journalDir, name);
    const entry = readStaging(file);
    if (entry !== undefined) out.push({ file, entry });
  }
  return out;
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** `host:port` of every server a journal entry (save or staging) names: the servers a cleanup must look at. */
export function journaledServers(journalDir: string): { host: string; port: number }[] {
  const seen = new Map<string, { host: string; port: number }>();
  for (const name of namesIn(journalDir)) {
    if (!CONFIG_JOURNAL_NAME.test(name)) continue;
    const e = readJournal(join(journalDir, name));
    if (e !== undefined) seen.set(`${e.host}:${e.port}`, { host: e.host, port: e.port });
  }
  for (const { entry } of listStagingJournals(journalDir)) seen.set(`${entry.host}:${entry.port}`, { host: entry.host, port: entry.port });
  return [...seen.values()];
}
