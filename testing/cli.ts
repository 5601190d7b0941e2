import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** `cacheboard …` as a cron job runs it: the real bin in a child process; `whenRunning` gets the child once it started. */
export function runCli(args: string[], whenRunning?: (child: ChildProcessWithoutNullStreams) => void): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/cacheboard.js', ...args], { stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    whenRunning?.(child);
  });
}
