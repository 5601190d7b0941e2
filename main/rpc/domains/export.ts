import { AppError } from '../../../app/errors';
import { exportFileName, startDownloadExport, startFileExport } from '../../core/export';
import { keyConnection } from '../../core/keys/keyConnection';
import type { Handlers } from '../handlers';
import { userKey } from '../session';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { roleOf, sessionProfile } from './sessionProfile';

type ExportHandlers = Pick<Handlers, 'export.start'>;

/**
 * Exports from the page (progress and cancel are every job's, ./jobs.ts). An analyst's export
 * reads on the analysts' own Redis user (sessionProfile), so it holds only what they may read
 * on the Keys page anyway; the restore format is ops', as `keys export` is. Audited as a job
 * that exposes data: who, where, which format and source, and what was written.
 */
export function exportHandlers({
  profiles,
  pool,
  jobs,
  audit,
  pickSaveFile,
}: Pick<CoreServices, 'profiles' | 'pool' | 'jobs' | 'audit' | 'pickSaveFile'>): ExportHandlers {
  return {
    'export.start': async (input, { session }) => {
      if (input.format === 'restore' && roleOf(session) !== 'ops') {
        throw new AppError('FORBIDDEN', 'The restore format (DUMP payloads for RESTORE) needs the ops role; analysts export ndjson or csv', 'format');
      }
      const { connectionId, profile } = sessionProfile(profiles, input.profileId, session);
      const db = input.db ?? profile.spec.db;
      const redis = await keyConnection(pool, connectionId, profile.spec, db);
      const target = `${profile.spec.name}/${db}`;
      // The desktop has no browser download: its own save dialog picks the file first.
      const path = pickSaveFile === undefined ? undefined : await pickSaveFile(exportFileName(input.format));
      if (path === null) throw new AppError('CANCELLED', 'No file was chosen: nothing was exported', 'savedTo');
      const trail = auditFor(audit, session, 'keys.export', target);
      const what = input.source.kind === 'keys' ? `${input.source.keys.length} selected keys` : `${input.source.kind} ${sourceText(input.source)}`;
      trail('started', `${input.format}, ${what}${input.ttls ? '' : ', no TTLs'}`);
      const end = (outcome: string, detail: string) => trail(outcome as 'ok' | 'failed' | 'cancelled', detail);
      if (path !== undefined) return startFileExport(jobs.export, redis, input, path, { target }, end);
      return startDownloadExport(jobs.export, redis, input, { user: userKey(session), target }, end);
    },
  };
}

function sourceText(source: { kind: 'prefix'; prefix: string } | { kind: 'pattern'; match: string }): string {
  return JSON.stringify(Buffer.from(source.kind === 'prefix' ? source.prefix : source.match, 'base64').toString('utf8'));
}
