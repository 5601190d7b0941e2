/**
 * Test helpers for the sources: feed input in chosen chunk sizes, decode the
 * RESP that comes out with a decoder written independently of the encoder
 * and of respFrame, and record what reaches the KeyTracker.
 */
import type { InputError, SourceOptions } from '../types';
import { decodeCommands } from '../../resp/respTestKit';
import type { CommandBatch, KeyTracker } from '../../resp/types';
import { BatchSink } from './batchSink';
import { makeParser } from './fileBatches';
import { parseStream } from './parseStream';
import type { SourceHooks } from './sourceHooks';

/** A KeyTracker that remembers what it was told. */
export class RecordingTracker implements KeyTracker {
  keys: string[] = [];
  untracked: string[] = [];
  add(buf: Buffer, start: number, end: number): void {
    this.keys.push(buf.toString('utf8', start, end));
  }
  untrackable(command: string): void {
    this.untracked.push(command);
  }
}

export interface RunResult {
  /** Every command's arguments as UTF-8 text. */
  commands: string[][];
  /** Every command's arguments as bytes. */
  raw: Buffer[][];
  lines: number[];
  batches: CommandBatch[];
  columns?: string[];
}

/** Split input into chunks of `size` bytes (the last may be shorter). */
export function chunked(input: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < input.length; i += size) out.push(input.subarray(i, i + size));
  return out;
}

/** Run a format's parser over input fed in chunks of chunkBytes (all at once by default). */
export async function run(input: string | Buffer, opts: Partial<SourceOptions> & Pick<SourceOptions, 'format'>, chunkBytes = Infinity): Promise<RunResult> {
  const out = await runCollecting(input, opts, chunkBytes);
  if (out.error) throw out.error;
  return out.result;
}

/** Like run(), but also returns what was produced before an error. */
export async function runCollecting(
  input: string | Buffer,
  opts: Partial<SourceOptions> & Pick<SourceOptions, 'format'>,
  chunkBytes = Infinity,
): Promise<{ result: RunResult; error?: unknown }> {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const full: SourceOptions = { file: 'in', ...opts };
  const sink = new BatchSink(full.batchBytes);
  const result: RunResult = { commands: [], raw: [], lines: [], batches: [] };
  const hooks: SourceHooks = { onColumns: (c) => (result.columns = c) };
  const parser = makeParser(full, sink, hooks);
  const chunks = chunkBytes === Infinity ? [bytes] : chunked(bytes, chunkBytes);
  async function* feed(): AsyncGenerator<Buffer> {
    // Copies, so a parser that kept a reference to a chunk would see it change.
    for (const c of chunks) yield Buffer.from(c);
  }
  try {
    for await (const b of parseStream(feed(), parser, sink, { skipBom: full.format !== 'resp' })) {
      const cmds = decodeCommands(b.resp);
      if (cmds.length !== b.count) throw new Error(`batch says ${b.count} commands, holds ${cmds.length}`);
      if (b.lines.length < b.count) throw new Error('lines shorter than count');
      result.batches.push(b);
      result.raw.push(...cmds);
      result.commands.push(...cmds.map((c) => c.map((a) => a.toString('utf8'))));
      result.lines.push(...b.lines.subarray(0, b.count));
    }
  } catch (error) {
    return { result, error };
  }
  return { result };
}

/** The InputError a run ends with (fails the test when it ends otherwise). */
export async function inputError(
  input: string | Buffer,
  opts: Partial<SourceOptions> & Pick<SourceOptions, 'format'>,
  chunkBytes = Infinity,
): Promise<InputError> {
  const { error } = await runCollecting(input, opts, chunkBytes);
  if (!(error instanceof Error) || error.name !== 'InputError') {
    throw new Error(`expected an InputError, got ${error === undefined ? 'success' : String(error)}`);
  }
  return error as InputError;
}
