import * as z from 'zod';
import { Redis } from 'ioredis';
import { cliArgs } from '../testing/cli';
import { runChildWithCpu } from './floor';
import { runChild, type ChildRun } from './measure';

export const r2 = (n: number) => Math.round(n * 100) / 100;
export const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** The pattern every deletion in the suite uses: over bulkData's `key:<i>`, the ids starting with 1 (~11%). */
export const PATTERN = 'key:1*';

/** How many of `key:0` … `key:<n-1>` PATTERN matches: the exact count each run is checked against. */
export function expectedMatches(n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) if (String(i).startsWith('1')) count++;
  return count;
}

/** `cacheboard keys … --json`: one object, the action's own count beside the common ones. */
const KeysReport = z.looseObject({
  action: z.string(),
  matched: z.number(),
  acted: z.number(),
  skipped: z.number(),
  errors: z.number(),
  seconds: z.number(),
  deleted: z.number().optional(),
  exported: z.number().optional(),
  file: z.string().optional(),
});
export type KeysReport = z.output<typeof KeysReport>;

/**
 * `cacheboard keys <args> --yes --json` as a user runs it (the compiled bin, in a child process):
 * the wall time from spawn to exit, its peak RSS, and its report. A non-zero exit throws.
 * `cpu`: run through floor.ts' runChildWithCpu for the process's CPU time instead; the child is
 * then a shell running the bin, so `peakRssBytes` is the shell's, not the bin's.
 */
export async function runKeysCli(args: string[], cpu = false): Promise<{ run: ChildRun & { cpuSeconds?: number }; report: KeysReport }> {
  const argv = cliArgs('keys', ...args, '--yes', '--json');
  const run = cpu ? await runChildWithCpu(process.execPath, argv) : await runChild(process.execPath, argv);
  if (run.code !== 0) throw new Error(`cacheboard keys ${args.join(' ')} failed (${run.code}): ${run.stderr}${run.stdout}`);
  return { run, report: KeysReport.parse(JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}')) };
}

/** `redis-cli --pipe` of a RESP file into one server; throws on a failed pipe. */
export async function pipeInto(server: { host: string; port: number }, file: string): Promise<ChildRun> {
  const run = await runChild('redis-cli', ['-h', server.host, '-p', String(server.port), '--pipe'], { stdinFile: file });
  if (run.code !== 0 || !/errors: 0,/.test(run.stdout)) throw new Error(`redis-cli --pipe failed: ${run.stderr}${run.stdout}`);
  return run;
}

/** DBSIZE of one server, over a short-lived connection. */
export async function dbsize(server: { host: string; port: number }): Promise<number> {
  const r = new Redis({ host: server.host, port: server.port });
  try {
    return await r.dbsize();
  } finally {
    r.disconnect();
  }
}

/** Throws unless `got` is `want`: the suite's exact-count checks (a benchmark of a wrong run is no figure). */
export function exact(label: string, got: number | undefined, want: number): void {
  if (got !== want) throw new Error(`${label}: expected ${want}, got ${String(got)}`);
}
