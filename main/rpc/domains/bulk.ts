import { AppError } from '../../../app/errors';
import { loadSummary } from '../../core/audit/loadSummary';
import { refuseForTopology } from '../../core/bulk/cluster/clusterLoadJob';
import { prepareLoad } from '../../core/bulk/prepareLoad';
import { loadSpec, startLoad } from '../../core/bulk/startLoad';
import { formatOf, previewSource } from '../../core/bulk/sources/openSource';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { storedProfile } from './sessionProfile';

type BulkHandlers = Pick<Handlers, 'bulk.files' | 'bulk.pick' | 'bulk.leftovers' | 'bulk.preview' | 'bulk.start'>;

/** Files and starting a load; its progress stream and cancel call are every job's (./jobs.ts). */
export function bulkHandlers({ profiles, pool, bulk, audit, jobs: { bulk: jobs } }: CoreServices): BulkHandlers {
  const { files } = bulk;
  return {
    'bulk.files': () => ({
      files: files.list(),
      uploadLimitBytes: files.uploadLimitBytes,
      canPick: bulk.pickFile !== undefined,
    }),

    'bulk.leftovers': () => ({ cleanups: bulk.leftovers?.() ?? [] }),

    'bulk.pick': async () => {
      if (!bulk.pickFile) {
        throw new AppError('VALIDATION', 'The file dialog exists only in the desktop app; upload the file instead');
      }
      const path = await bulk.pickFile();
      return { file: path === null ? null : files.register(path, 'picked') };
    },

    'bulk.preview': async ({ fileId, format, mapping, rows }) => {
      const file = files.resolve(fileId);
      const fmt = formatOf(file.name, format);
      const preview = await previewSource(file, { file: file.name, format: fmt, ...(mapping ? { mapping } : {}) }, rows);
      return { format: fmt, ...preview };
    },

    'bulk.start': async (o, { session }) => {
      const profile = storedProfile(profiles, o.profileId);
      const file = files.resolve(o.fileId);
      const targetDb = o.targetDb ?? profile.spec.db;
      refuseForTopology(profile.spec, o.mode, targetDb);
      const prepared = prepareLoad({ ...o, targetDb, path: file.path, folder: file.folder, fileLabel: file.name, requireConfirm: true });
      const load = startLoad(await loadSpec(profile.spec), prepared, { pool, profileId: o.profileId, journalDir: bulk.journalDir, clusterName: o.profileId });
      const { target } = load;
      // A cluster's masters are claimed by the load itself (CLIENT LIST per master); this only stops a double start here.
      const holder = jobs.runningOn(target);
      if (holder !== undefined) {
        throw new AppError('CONFLICT', `Load ${holder} is already loading ${load.cluster ? 'this cluster' : target}; wait for it or cancel it`);
      }
      const trail = auditFor(audit, session, `bulk.${prepared.mode}`, target);
      // async: a start the audit log refuses (AUDIT_UNAVAILABLE) ends the job failed, never leaves it held as running.
      const jobId = jobs.start(target, async (id, emit, signal) => {
        trail('started', `${id} ${file.name}`);
        return load.run(id, emit, signal).then((report) => {
          const { detail, figures } = loadSummary(report);
          trail(report.outcome, detail, { figures });
          if (!load.cluster && report.saveConfig !== undefined) {
            auditFor(audit, session, 'config.set', target)(report.saveConfig.restored ? 'ok' : 'failed', `save "" during the load, then save "${report.saveConfig.original}" ${report.saveConfig.restored ? 'restored' : 'NOT restored'}`);
          }
          return report;
        });
      });
      return { jobId };
    },
  };
}
