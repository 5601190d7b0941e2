import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs, cliNodeFlags } from '../../testing/cli';
import { binModules, packagesIn, runLoggingModules } from '../../testing/moduleLog';
import { useRedis } from '../../testing/redis';

const root = process.cwd();
const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-launcher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a run of the bin compiled: a source (.ts) or tsx itself. */
const compiledAtStart = (urls: string[]) => urls.filter((u) => u.endsWith('.ts') || /\/node_modules\/tsx\//.test(u));

describe('the cacheboard launcher', () => {
  it('runs as an executable through its shebang, node flags included', () => {
    expect(cliNodeFlags()).toContain('--max-semi-space-size=8');
    const r = spawnSync('./bin/cacheboard.js', ['--help'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^cacheboard \d+\.\d+\.\d+/);
  });

  it('npm start builds, then passes the same node flags as the shebang', () => {
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
    expect(start).toMatch(/^npm run build && /);
    expect(start).toContain(`node ${cliNodeFlags().join(' ')} bin/cacheboard.js serve`);
  });

  it('`npx cacheboard`, as a user runs it after npm install, runs the compiled CLI: no TypeScript, no tsx', async () => {
    const r = await runLoggingModules('npx', ['--no-install', 'cacheboard', '--version']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const loaded = binModules(r);
    expect(loaded).toContain(`file://${root}/dist/main/cli.js`);
    expect(compiledAtStart(loaded)).toEqual([]);
  });

  it('--version and --help load no Redis client, no web server and no npm package at all', async () => {
    for (const flag of ['--version', '--help']) {
      const r = await runLoggingModules(process.execPath, cliArgs(flag));
      expect(r.code, r.err).toBe(0);
      expect(packagesIn(binModules(r))).toEqual([]);
    }
  });

  it('load loads the Redis client but not the web server', async () => {
    const csv = join(dir, 'few.csv');
    writeFileSync(csv, 'id,v\n1,a\n2,b\n');
    const r = await runLoggingModules(process.execPath, cliArgs('load', csv, '--url', `${redis().url}/0`, '--key', 'k:{id}', '--value', 'v'), {
      CACHEBOARD_DATA_DIR: join(dir, 'data'),
    });
    expect(r.code, r.err + r.out).toBe(0);
    const packages = packagesIn(binModules(r));
    expect(packages).toContain('ioredis');
    expect(packages.filter((p) => p === 'fastify' || p.startsWith('@fastify/') || p === 'ws')).toEqual([]);
    expect(compiledAtStart(binModules(r))).toEqual([]);
  });

  it('refuses a build older than the sources, naming the changed file and the command to run', () => {
    // A copy of the package (sources, bin, build) whose files all have new mtimes: unchanged
    // contents still count as up to date; one edited source does not.
    const copy = join(dir, 'pkg');
    for (const part of ['app', 'main', 'bin', 'scripts', 'dist/main', 'package.json']) cpSync(join(root, part), join(copy, part), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    const run = () => spawnSync(process.execPath, [...cliNodeFlags(), join(copy, 'bin/cacheboard.js'), '--version'], { encoding: 'utf8' });

    const fresh = run();
    expect(fresh.status, fresh.stderr).toBe(0);

    appendFileSync(join(copy, 'main/cli/info.ts'), '\n// edited after the build\n');
    const stale = run();
    expect(stale.status).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toContain('main/cli/info.ts changed since dist/main/ was built');
    expect(stale.stderr).toContain('Run `npm run build:main`');

    rmSync(join(copy, 'dist/main/build.json'));
    expect(run().stderr).toContain('dist/main/ has not been built');
  });
});
