import { basename } from 'node:path';
import type { Cluster, Redis } from 'ioredis';
import type { ExportEvent, ExportStart } from '../../../app/schemas/export';
import type { Outcome } from '../jobs/outcome';
import { ExportFile } from '../keys';
import { toAppError } from '../pool/redisErrors';
import type { ExportJobs } from './exportJobs';
import { exportContentType, exportFileName, runExport } from './runExport';

export interface StartedExport {
  jobId: string;
  fileName: string;
  /** Where the web build serves the bytes (GET, the session's cookie). */
  download?: string;
  /** The desktop's file, chosen in its save dialog: whole once the job is done, absent otherwise. */
  savedTo?: string;
}

/**
 * Starts an export whose bytes go to a download (the web build's GET /api/exports/<jobId>):
 * the job says its file's name, waits for its owner's browser to fetch it, then streams into it.
 * `done` is called with the outcome (the audit's end).
 */
export function startDownloadExport(
  jobs: ExportJobs,
  redis: Redis | Cluster,
  input: ExportStart,
  who: { user: string; target: string },
  done: (outcome: string, detail: string) => void,
): StartedExport {
  const fileName = exportFileName(input.format);
  const contentType = exportContentType(input.format);
  const jobId = jobs.start(who.target, async (id, emit, signal) => {
    emit({ kind: 'started', fileName, contentType });
    let download;
    try {
      download = await jobs.waitForDownload(id, { user: who.user, fileName, contentType }, signal);
    } catch (e) {
      const error = e as { code: string; message: string };
      done(signal.aborted ? 'cancelled' : 'failed', error.message);
      return signal.aborted ? { kind: 'cancelled', counts: emptyCounts() } : { kind: 'failed', error: { code: error.code, message: error.message } };
    }
    const out = await runExport(
      { redis, source: input.source, format: input.format, ttls: input.ttls, expected: input.expected, sink: download.sink },
      emit,
      signal,
    );
    download.end(out.kind === 'done');
    done(out.kind === 'done' ? 'ok' : out.kind, outcomeDetail(out));
    return out;
  });
  return { jobId, fileName, download: `/api/exports/${jobId}` };
}

/**
 * Starts an export into a file (the desktop's save dialog chose `path`): written beside it and
 * renamed over it once whole, so a cancelled or failed run leaves the file as it was.
 */
export async function startFileExport(
  jobs: ExportJobs,
  redis: Redis | Cluster,
  input: ExportStart,
  path: string,
  who: { target: string },
  done: (outcome: string, detail: string) => void,
): Promise<StartedExport> {
  const file = await ExportFile.open(path);
  const fileName = basename(file.out);
  const jobId = jobs.start(who.target, async (_id, emit, signal) => {
    emit({ kind: 'started', fileName, contentType: exportContentType(input.format) });
    const out = await runExport({ redis, source: input.source, format: input.format, ttls: input.ttls, expected: input.expected, sink: file }, emit, signal);
    let end = out;
    try {
      if (out.kind === 'done') await file.finish();
      else await file.discard();
    } catch (e) {
      // The disk filled or the folder went while closing: the run did not reach the file whole.
      await file.discard().catch(() => undefined);
      const error = toAppError(e);
      end = { kind: 'failed', error: { code: error.code, message: `${file.out}: ${error.message}` }, counts: out.counts ?? emptyCounts() };
    }
    done(end.kind === 'done' ? 'ok' : end.kind, `${file.out}: ${outcomeDetail(end)}`);
    return end;
  });
  return { jobId, fileName, savedTo: file.out };
}

/** The audit log's detail of an export's end: what was written, and the error of a failed one. */
function outcomeDetail(out: Outcome<ExportEvent>): string {
  const c = out.counts;
  const counts = c ? `${c.keys} keys, ${c.bytes} bytes, ${c.vanished} vanished, ${c.unsupported} unsupported` : '';
  return `${counts}${out.kind === 'failed' ? `: ${out.error.message}` : ''}`;
}

function emptyCounts() {
  return { keys: 0, total: null, bytes: 0, vanished: 0, unsupported: 0 };
}
