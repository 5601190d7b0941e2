import type { InputFile } from '../inputFile';
import { InputError, type SourceOptions } from '../types';
import { displayArg } from './displayArg';
import { fileBatches } from './fileBatches';
import { CommandFrame, scanCommand } from './respFrame';

/** What bulk.preview shows (app/schemas/bulk.ts Preview, less the format). */
export interface SourcePreview {
  columns?: string[];
  rows: { line: number; args: string[] }[];
  /** The first malformed spot within the previewed rows. */
  error?: string;
}

/** Small reads and batches: a preview needs the first rows, not throughput. */
const PREVIEW_CHUNK_BYTES = 64 * 1024;
const PREVIEW_BATCH_BYTES = 16 * 1024;

/**
 * The first `rows` commands of a file, through the same parser a load uses,
 * decoded back into arguments for display (redis-cli escaping). A tabular
 * file without a mapping yet shows each record's values, so the user can see
 * the columns while writing the key template. Input errors before the rows
 * run out become `error`; errors in the mapping itself are thrown.
 */
export async function previewSource(file: string | InputFile, opts: SourceOptions, rows: number): Promise<SourcePreview> {
  let columns: string[] | undefined;
  const out: SourcePreview['rows'] = [];
  let error: string | undefined;
  const frame = new CommandFrame();
  const batches = fileBatches(
    file,
    { file: opts.file, format: opts.format, batchBytes: PREVIEW_BATCH_BYTES, ...(opts.mapping ? { mapping: opts.mapping } : {}) },
    { chunkBytes: PREVIEW_CHUNK_BYTES, onColumns: (c) => (columns ??= c) },
  );
  try {
    for await (const batch of batches) {
      let pos = 0;
      for (let i = 0; i < batch.count && out.length < rows; i++) {
        // The batch is our own RESP, so the source parser's framing reader decodes it.
        const next = scanCommand(batch.resp, pos, batch.resp.length, frame);
        if (next < 0) throw new Error(`preview: batch command ${i} is not well-framed RESP`);
        const args: string[] = [];
        for (let a = 0; a < frame.argc; a++) args.push(displayArg(batch.resp, frame.argStart[a] as number, frame.argEnd[a] as number));
        out.push({ line: batch.lines[i] as number, args });
        pos = next;
      }
      if (out.length >= rows) break;
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    error = e.message;
  }
  return { ...(columns ? { columns } : {}), rows: out, ...(error === undefined ? {} : { error }) };
}
