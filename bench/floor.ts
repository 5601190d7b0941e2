import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { parseCommandStats, type CommandUsec } from '../main/core/audience/commandStats';
import { runChild, type ChildRun } from './measure';

const r3 = (n: number) => Math.round(n * 1000) / 1000;

/** INFO commandstats' usec per command, as a snapshot to subtract from a later one. */
export async function commandUsec(admin: Redis): Promise<CommandUsec> {
  return parseCommandStats(String(await admin.info('commandstats')));
}

/**
 * The physical floor of a job: the time the server itself spent on the commands it sent
 * between two snapshots, per command and in all, beside the job's wall time and the Node
 * process's CPU time. A walk cannot end before the server has served it, so `wall_vs_server`
 * is how far above that floor the job is (the goal is at most 1.25).
 */
export function floorFigures(
  before: CommandUsec,
  after: CommandUsec,
  wallSeconds: number,
  nodeCpuSeconds: number | undefined,
): { server_seconds: number; server_by_command: Record<string, number>; node_cpu_seconds: number | null; wall_seconds: number; wall_vs_server: number } {
  const byCommand: Record<string, number> = {};
  let usec = 0;
  for (const [name, after_] of after) {
    // INFO itself (the snapshots) is not the job's.
    if (name === 'info') continue;
    const d = after_ - (before.get(name) ?? 0);
    if (d <= 0) continue;
    byCommand[name] = r3(d / 1e6);
    usec += d;
  }
  const server = usec / 1e6;
  return {
    server_seconds: r3(server),
    server_by_command: byCommand,
    node_cpu_seconds: nodeCpuSeconds === undefined ? null : r3(nodeCpuSeconds),
    wall_seconds: r3(wallSeconds),
    wall_vs_server: server > 0 ? r3(wallSeconds / server) : NaN,
  };
}

/**
 * Runs a command as `runChild` does and also reports the CPU time (user + system) it and its
 * children used. Node cannot read a child's rusage, so a shell runs it and, once it has waited
 * for it, writes its own /proc stat, whose cutime and cstime hold exactly that.
 */
export async function runChildWithCpu(cmd: string, args: string[], opts: { stdinFile?: string } = {}): Promise<ChildRun & { cpuSeconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-cpu-'));
  const statFile = join(dir, 'stat');
  try {
    const run = await runChild('sh', ['-c', '"$@"; s=$?; cat /proc/$$/stat > "$CB_STAT"; exit $s', 'sh', cmd, ...args], {
      ...opts,
      env: { CB_STAT: statFile },
    });
    // Fields after the command name (which may hold spaces): cutime and cstime are the 16th and 17th of the line.
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return { ...run, cpuSeconds: ticks / CLOCK_TICKS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;
