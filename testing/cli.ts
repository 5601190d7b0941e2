import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { refuseInUnitSuite } from './suiteGuard';

/**
 * The node flags on bin/cacheboard.js's shebang line (`#!/usr/bin/env -S node <flags>`),
 * so tests and benches run the CLI as `npx cacheboard` does, flags included.
 */
export function cliNodeFlags(): string[] {
  const first = readFileSync(new URL('../bin/cacheboard.js', import.meta.url), 'utf8').split('\n')[0] ?? '';
  return /^#!\/usr\/bin\/env -S node (.+)$/.exec(first)?.[1]?.split(' ').filter(Boolean) ?? [];
}

/** Arguments for process.execPath: the shebang's flags, the bin, then `args`. */
export const cliArgs = (...args: string[]): string[] => [...cliNodeFlags(), 'bin/cacheboard.js', ...args];

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * `cacheboard …` as a cron job runs it: the real bin in a child process; `whenRunning` gets the
 * child once it started; `env` is added to this process's environment.
 */
export function runCli(args: string[], whenRunning?: (child: ChildProcessWithoutNullStreams) => void, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  refuseInUnitSuite(`run cacheboard ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(...args), { stdio: 'pipe', env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    whenRunning?.(child);
  });
}
