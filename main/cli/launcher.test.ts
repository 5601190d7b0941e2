import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliNodeFlags } from '../../testing/cli';

describe('the cacheboard launcher', () => {
  it('runs as an executable through its shebang, node flags included', () => {
    expect(cliNodeFlags()).toContain('--max-semi-space-size=8');
    const r = spawnSync('./bin/cacheboard.js', ['--help'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^cacheboard \d+\.\d+\.\d+/);
  });

  it('npm start passes the same node flags as the shebang', () => {
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
    expect(start).toContain(`node ${cliNodeFlags().join(' ')} bin/cacheboard.js serve`);
  });
});
