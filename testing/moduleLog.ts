import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOOKS = fileURLToPath(new URL('./moduleLog.hooks.mjs', import.meta.url));

export interface LoggedRun {
  code: number | null;
  out: string;
  err: string;
  /** The URLs every Node process of the run resolved, by that process's argv[1]. */
  modules: Map<string, string[]>;
}

/**
 * Runs a command (`npx cacheboard …`, `node bin/cacheboard.js …`) with NODE_OPTIONS loading
 * moduleLog.hooks.mjs into every Node process it starts, and returns what each one loaded.
 */
export function runLoggingModules(cmd: string, args: string[], env: Record<string, string> = {}): Promise<LoggedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'cb-module-log-'));
  const file = join(dir, 'modules.log');
  const nodeOptions = [process.env.NODE_OPTIONS, `--import=${HOOKS}`].filter(Boolean).join(' ');
  return new Promise<LoggedRun>((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env, NODE_OPTIONS: nodeOptions, CB_MODULE_LOG: file }, stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const modules = new Map<string, string[]>();
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // no Node process started: nothing loaded
      }
      for (const line of text.split('\n').filter(Boolean)) {
        const [argv1 = '', url = ''] = line.split('\t');
        modules.set(argv1, [...(modules.get(argv1) ?? []), url]);
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, out, err, modules });
    });
  });
}

/** The modules of the run's `cacheboard` process (argv[1] is the bin or a link to it). */
export function binModules(run: LoggedRun): string[] {
  const found = [...run.modules.entries()].filter(([argv1]) => /(^|\/)cacheboard(\.js)?$/.test(argv1));
  if (found.length !== 1) throw new Error(`expected one cacheboard process, saw: ${[...run.modules.keys()].join(', ') || 'none'}; ${run.err}`);
  return found[0]?.[1] ?? [];
}

/** The npm packages among `urls` (by their node_modules folder), e.g. ["ioredis", "@fastify/static"]. */
export function packagesIn(urls: string[]): string[] {
  const names = urls.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter((n): n is string => n !== undefined);
  return [...new Set(names)].sort();
}
