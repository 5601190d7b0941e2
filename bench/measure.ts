import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** `--name N` from the bench's command line, else the fallback. */
export function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

export interface ChildRun {
  seconds: number;
  stdout: string;
  stderr: string;
  code: number | null;
  /** Peak resident set of the child, sampled every 20 ms from /proc. */
  peakRssBytes: number;
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs a command, timing it wall-clock and sampling its RSS. */
export function runChild(cmd: string, args: string[], opts: { stdinFile?: string } = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    const timer = setInterval(() => {
      if (child.pid !== undefined) peak = Math.max(peak, rssOf(child.pid));
    }, 20);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    if (opts.stdinFile) {
      import('node:fs').then(({ createReadStream }) => createReadStream(opts.stdinFile as string).pipe(child.stdin));
    } else child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, stdout, stderr, code, peakRssBytes: peak });
    });
  });
}
