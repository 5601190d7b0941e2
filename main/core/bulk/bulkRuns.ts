import type { CallArgs, CallOutput } from '../../../app/contract';
import { AppError } from '../../../app/errors';
import { loadSummary, type AuditFigure } from '../audit';
import { refuseReadOnlyData } from '../pool/readOnlyProfile';
import type { PoolApi, StoredProfile } from '../pool/types';
import { refuseForTopology } from './cluster/clusterLoadJob';
import type { InputFile } from './inputFile';
import type { BulkJobs } from './jobManager';
import { prepareLoad } from './prepareLoad';
import { loadSpec, startLoad } from './startLoad';

/** One load's audit entries: 'started' once its job runs, then its outcome with its numbers. */
export type LoadTrail = (outcome: 'started' | 'ok' | 'failed' | 'cancelled', detail?: string, extra?: { figures?: AuditFigure[] }) => void;

/** Opens an audit trail: the action (bulk.<mode>, or config.set for the save setting a load changed) on `where`. */
export type OpenLoadTrail = (action: string, where: string) => LoadTrail;

export interface BulkRunsDeps {
  pool: PoolApi;
  jobs: BulkJobs;
  /** Where load journals live (a crash's leftovers are found there). */
  journalDir: string;
}

/**
 * Starts the load `ask` describes from `file` into `profile` as a job; its job id (never on a
 * read-only-data profile: refused before the file is read or Redis is called). A cluster's
 * masters are claimed by the load itself (CLIENT LIST per master); the check here only stops a
 * double start in this process.
 */
export async function startBulkLoad(
  { pool, jobs, journalDir }: BulkRunsDeps,
  ask: CallArgs<'bulk.start'>,
  profile: StoredProfile,
  file: InputFile & { name: string },
  openTrail: OpenLoadTrail,
): Promise<CallOutput<'bulk.start'>> {
  refuseReadOnlyData(profile, { refused: 'nothing is loaded into it', instead: 'load data' });
  const targetDb = ask.targetDb ?? profile.spec.db;
  refuseForTopology(profile.spec, ask.mode, targetDb);
  const prepared = prepareLoad({ ...ask, targetDb, path: file.path, folder: file.folder, fileLabel: file.name, requireConfirm: true });
  const load = startLoad(await loadSpec(profile.spec), prepared, { pool, profileId: ask.profileId, journalDir, clusterName: ask.profileId });
  const { target } = load;
  const holder = jobs.runningOn(target);
  if (holder !== undefined) {
    throw new AppError('CONFLICT', `Load ${holder} is already loading ${load.cluster ? 'this cluster' : target}; wait for it or cancel it`);
  }
  const trail = openTrail(`bulk.${prepared.mode}`, target);
  // async: a start the audit log refuses (AUDIT_UNAVAILABLE) ends the job failed, never leaves it held as running.
  const jobId = jobs.start(target, async (id, emit, signal) => {
    trail('started', `${id} ${file.name}`);
    return load.run(id, emit, signal).then((report) => {
      const { detail, figures } = loadSummary(report);
      trail(report.outcome, detail, { figures });
      if (!load.cluster && report.saveConfig !== undefined) {
        const { restored, original } = report.saveConfig;
        openTrail('config.set', target)(
          restored ? 'ok' : 'failed',
          `save "" during the load, then save "${original}" ${restored ? 'restored' : 'NOT restored'}`,
        );
      }
      return report;
    });
  });
  return { jobId };
}
