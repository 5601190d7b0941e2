import { AppError } from '../../../app/errors';
import { startBulkLoad } from '../../core/bulk/bulkRuns';
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
      return startBulkLoad({ pool, jobs, journalDir: bulk.journalDir }, o, profile, file, (action, where) => auditFor(audit, session, action, where));
    },
  };
}
