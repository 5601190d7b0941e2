import type { Cluster, Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import type { ExportCounts, ExportEvent, ExportFormat, ExportSource } from '../../../app/schemas/export';
import type { Outcome } from '../jobs/outcome';
import { toAppError } from '../pool/redisErrors';
import { RespBuilder } from '../resp/respBuilder';
import { asBuf, asNum, clientOf, ExportFile } from '../keys';
import { readKey } from './keyPages';
import { CSV_HEADER, csvRow, ndjsonLine } from './lines';
import { walkKeys } from './walkKeys';

/** Where the bytes go: a file (CLI), an HTTP response (web). `write` resolves once the chunk is taken (backpressure). */
export interface ExportSink {
  write(chunk: Buffer): Promise<void>;
}

export interface ExportRun {
  /** The profile's connection (the pooled Cluster on a cluster: single-key commands go by slot). */
  redis: Redis | Cluster;
  source: ExportSource;
  format: ExportFormat;
  ttls: boolean;
  expected?: number | undefined;
  sink: ExportSink;
}

/** Bytes gathered before a write: few large writes, and never more than this (plus one line) held. */
const FLUSH_BYTES = 64 * 1024;
/** Progress events at most this often. */
const PROGRESS_MS = 100;

/** The file name a run's download suggests: the format's extension, which the bulk load detects. */
export function exportFileName(format: ExportFormat, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `cacheboard-export-${stamp}.${format === 'restore' ? 'resp' : `keys.${format}`}`;
}

export function exportContentType(format: ExportFormat): string {
  return format === 'ndjson' ? 'application/x-ndjson' : format === 'csv' ? 'text/csv; charset=utf-8' : 'application/octet-stream';
}

/**
 * One export, whatever its source, format and sink: keys walked a page at a time, each key read
 * a page at a time and written as it is read, so memory holds a page, never a keyspace or a
 * whole value. Keys gone by the time they are read (deleted, expired) and keys of a type the
 * format cannot hold (a module type in ndjson or csv) are counted, not written. Resolves with
 * the outcome; the sink's file or download is whole only when it is `done`.
 */
export async function runExport(run: ExportRun, emit: (e: ExportEvent) => void, signal: AbortSignal): Promise<Outcome<ExportEvent>> {
  const counts: ExportCounts = {
    keys: 0,
    total: run.source.kind === 'keys' ? run.source.keys.length : (run.expected ?? null),
    bytes: 0,
    vanished: 0,
    unsupported: 0,
  };
  const client = clientOf(run.redis);
  let held: Buffer[] = [];
  let heldBytes = 0;
  const flush = async () => {
    if (heldBytes === 0) return;
    const chunk = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held, heldBytes);
    held = [];
    heldBytes = 0;
    await run.sink.write(chunk);
    counts.bytes += chunk.length;
  };
  const put = async (b: Buffer) => {
    held.push(b);
    heldBytes += b.length;
    if (heldBytes >= FLUSH_BYTES) await flush();
  };
  let lastProgress = 0;
  const progress = () => {
    const now = Date.now();
    if (now - lastProgress < PROGRESS_MS) return;
    lastProgress = now;
    emit({ kind: 'progress', counts: { ...counts } });
  };

  try {
    if (run.format === 'csv') await put(Buffer.from(CSV_HEADER));
    const resp = new RespBuilder(1 << 20);
    for await (const batch of walkKeys(run.redis, run.source, signal)) {
      if (run.format === 'restore') {
        await restoreBatch(client, batch, run.ttls, resp, counts);
        const bytes = resp.take();
        await put(Buffer.from(bytes));
        resp.recycle(bytes);
      } else {
        for (const key of batch) {
          signal.throwIfAborted();
          const read = await readKey(client, key);
          if (read.kind === 'vanished') counts.vanished++;
          else if (read.kind === 'unsupported') counts.unsupported++;
          else {
            const ttlMs = run.ttls && read.pttl > 0 ? read.pttl : null;
            let part = 0;
            for await (const page of read.pages) {
              const line = { key, type: read.type, ttlMs, part: part++, page };
              await put(Buffer.from(run.format === 'ndjson' ? ndjsonLine(line) : csvRow(line)));
            }
            // A key emptied between TYPE and its first page (Redis removes empty aggregates) is gone.
            if (part === 0) counts.vanished++;
            else counts.keys++;
          }
          progress();
        }
      }
      signal.throwIfAborted();
      progress();
    }
    await flush();
    return { kind: 'done', counts: { ...counts } };
  } catch (e) {
    if (signal.aborted) return { kind: 'cancelled', counts: { ...counts } };
    const err = e instanceof AppError ? e : toAppError(e, { label: 'the export' });
    return { kind: 'failed', error: { code: err.code, message: err.message }, counts: { ...counts } };
  }
}

/** DUMP and PTTL of a batch, pipelined, as RESTORE commands (the keys export's exact format). */
async function restoreBatch(client: ReturnType<typeof clientOf>, keys: Buffer[], ttls: boolean, out: RespBuilder, counts: ExportCounts): Promise<void> {
  const replies = await Promise.all(keys.map((k) => Promise.all([client.send('PTTL', k), client.send('DUMP', k)])));
  keys.forEach((key, i) => {
    const [pttl, payload] = replies[i] as [unknown, unknown];
    const bytes = asBuf(payload);
    if (bytes === null) {
      counts.vanished++;
      return;
    }
    ExportFile.restore(out, key, ttls ? (asNum(pttl) ?? 0) : 0, bytes);
    counts.keys++;
  });
}
