import { AppError } from '../../../app/errors';
import type { LoadFile } from '../../../app/schemas/bulk';
import { toAppError } from '../../bridge/toAppError';
import { formatBytes } from '../../lib/format';

/** The web server's upload route; the body is the raw file. */
export function uploadUrl(name: string): string {
  return `/api/uploads?name=${encodeURIComponent(name)}`;
}

function isLoadFile(v: unknown): v is LoadFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return typeof f.fileId === 'string' && typeof f.name === 'string' && typeof f.size === 'number' && typeof f.origin === 'string';
}

/**
 * The server answers `{ file }` or `{ error: { code, message } }`. A proxy in
 * front of it may answer 413 or 502 with HTML instead, so the status speaks
 * when the body does not.
 */
export function parseUploadResponse(status: number, body: string, limitBytes?: number): LoadFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const o = typeof parsed === 'object' && parsed !== null ? (parsed as { file?: unknown; error?: unknown }) : {};
  if (status >= 200 && status < 300 && isLoadFile(o.file)) return o.file;
  if (o.error !== undefined) throw toAppError(o.error);
  if (status === 413) throw tooLarge(limitBytes);
  if (status === 401 || status === 403) throw new AppError('FORBIDDEN', `The server refused the upload (HTTP ${status}).`);
  throw new AppError('INTERNAL', `The upload failed: the server answered HTTP ${status} without a file.`);
}

export function tooLarge(limitBytes: number | undefined): AppError {
  const limit = limitBytes === undefined ? '' : ` of ${formatBytes(limitBytes)}`;
  return new AppError('VALIDATION', `The file is larger than the upload limit${limit}. Put it in the server's import folder instead.`);
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * POST the file as the raw body. XMLHttpRequest rather than fetch: only XHR
 * reports upload progress. The custom header is what makes a cross-site page's
 * request need a CORS preflight, which our server never grants.
 */
export function uploadFile(file: File, opts: { onProgress(p: UploadProgress): void; signal: AbortSignal; limitBytes?: number }): Promise<LoadFile> {
  return new Promise<LoadFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', uploadUrl(file.name));
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('x-cacheboard-upload', '1');
    xhr.upload.onprogress = (e) => opts.onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => {
      try {
        resolve(parseUploadResponse(xhr.status, xhr.responseText, opts.limitBytes));
      } catch (e) {
        reject(toAppError(e));
      }
    };
    xhr.onerror = () => reject(new AppError('DISCONNECTED', 'The upload was interrupted: the server could not be reached.'));
    xhr.onabort = () => reject(new AppError('CONFLICT', 'Upload cancelled.'));
    if (opts.signal.aborted) {
      reject(new AppError('CONFLICT', 'Upload cancelled.'));
      return;
    }
    opts.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
