import { PassThrough, type Readable } from 'node:stream';
import { AppError } from '../../../app/errors';
import type { ExportEvent } from '../../../app/schemas/export';
import { JobManager } from '../jobs/jobManager';
import { outcomeJob, type Outcome } from '../jobs/outcome';
import type { ExportSink } from './runExport';

/** How long an export waits for its download to be fetched before it gives up. */
export const DOWNLOAD_WAIT_MS = 60_000;
/** Bytes the download stream holds before the export waits for the browser (backpressure). */
const STREAM_HIGH_WATER = 256 * 1024;

/** A download being fetched: the body to send, what to call it, and how the export ends it. */
export interface ExportDownload {
  body: Readable;
  fileName: string;
  contentType: string;
}

interface Waiting {
  user: string;
  fileName: string;
  contentType: string;
  claimed: (body: PassThrough) => void;
}

/**
 * Running and recent exports. A late subscriber gets `started`, the latest progress and the
 * outcome. A web export's bytes go to the one download its owner fetches (claim): the export
 * waits for it (waitForDownload), writes into it as the browser reads, and ends it whole, or
 * destroys it so the browser sees the download fail rather than keep a cut file as whole.
 */
export class ExportJobs extends JobManager<ExportEvent, Outcome<ExportEvent>> {
  private readonly waiting = new Map<string, Waiting>();

  constructor() {
    super(outcomeJob({ prefix: 'export', noun: 'export', latest: ['progress'], crashed: 'export crashed' }));
  }

  /** The export's side: resolves with a sink once its owner's download connects; refused after `waitMs` or on cancel. */
  waitForDownload(
    jobId: string,
    meta: { user: string; fileName: string; contentType: string },
    signal: AbortSignal,
    waitMs = DOWNLOAD_WAIT_MS,
  ): Promise<{ sink: ExportSink; end(whole: boolean): void }> {
    return new Promise((resolve, reject) => {
      const stop = (e: AppError) => {
        clearTimeout(timer);
        this.waiting.delete(jobId);
        reject(e);
      };
      const timer = setTimeout(() => stop(new AppError('TIMEOUT', `Nobody fetched the export's download within ${waitMs / 1000} s; start it again`)), waitMs);
      signal.addEventListener('abort', () => stop(new AppError('CANCELLED', 'The export was cancelled before its download began')), { once: true });
      this.waiting.set(jobId, {
        ...meta,
        claimed: (body) => {
          clearTimeout(timer);
          resolve({ sink: streamSink(body, signal), end: (whole) => (whole ? body.end() : body.destroy(new Error('export incomplete'))) });
        },
      });
    });
  }

  /**
   * The HTTP side: the body of `jobId`'s download, for its owner only and only once (the id is
   * not a capability on its own: a link passed on does not work for someone else).
   */
  claim(jobId: string, user: string): ExportDownload {
    const w = this.waiting.get(jobId);
    if (w === undefined)
      throw new AppError('NOT_FOUND', `No export waiting for its download with id ${jobId} (fetched already, ended, or never started)`, 'jobId');
    if (w.user !== user) throw new AppError('FORBIDDEN', 'This export was started by someone else', 'jobId');
    this.waiting.delete(jobId);
    const body = new PassThrough({ highWaterMark: STREAM_HIGH_WATER });
    w.claimed(body);
    return { body, fileName: w.fileName, contentType: w.contentType };
  }
}

/** Writes that wait while the browser is behind; a closed download (the browser gave up) fails the export. */
function streamSink(body: PassThrough, signal: AbortSignal): ExportSink {
  return {
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        if (body.destroyed) return reject(new AppError('CANCELLED', 'The download was closed before the export finished'));
        if (body.write(chunk)) return resolve();
        const done = (e?: AppError) => {
          body.off('drain', onDrain);
          body.off('close', onClose);
          signal.removeEventListener('abort', onClose);
          if (e) reject(e);
          else resolve();
        };
        const onDrain = () => done();
        const onClose = () => done(new AppError('CANCELLED', 'The download was closed before the export finished'));
        body.on('drain', onDrain);
        body.on('close', onClose);
        signal.addEventListener('abort', onClose, { once: true });
      }),
  };
}
