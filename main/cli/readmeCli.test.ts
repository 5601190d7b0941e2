import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { USER_HELP } from './user';

/** The CLI reference's table (docs/cli.md, moved from the README): each row's first cell, the command line it documents. */
function readmeCliRows(): string[] {
  const reference = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const section = reference.split(/^# CLI reference$/m)[1]?.split(/^## /m)[0] ?? '';
  return (
    section
      .split('\n')
      .filter((l) => l.startsWith('| `cacheboard'))
      // A `|` inside a table cell is written `\|`.
      .map((l) => (/^\| `([^`]+)`/.exec(l)?.[1] ?? '').replaceAll('\\|', '|'))
  );
}

/** The commands `cacheboard --help` lists (COMMANDS in main/cli/index.ts): the first word of each entry. */
async function helpCommands(): Promise<string[]> {
  const r = await runCli(['--help']);
  expect(r.code, r.err).toBe(0);
  const block = r.out.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  return [...block.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1] ?? '');
}

const commandOf = (row: string): string => row.split(/\s+/)[1] ?? '';

describe('the CLI reference table (docs/cli.md)', () => {
  it('has a row for every command the CLI lists, and none for a command it does not have', async () => {
    const commands = await helpCommands();
    expect(commands).toContain('user');
    const rows = readmeCliRows();
    const documented = new Set(rows.map(commandOf).filter((c) => !c.startsWith('-')));
    expect([...documented].sort()).toEqual([...new Set(commands)].sort());
  });

  it('names every action of `cacheboard user` its own help gives', () => {
    const actions = [...USER_HELP.matchAll(/^ {2}cacheboard user (\w+)/gm)].map((m) => m[1] ?? '');
    expect(actions.length).toBeGreaterThan(1);
    const row = readmeCliRows().find((r) => commandOf(r) === 'user') ?? '';
    const documented = /^cacheboard user (\S+)/.exec(row)?.[1]?.split('|') ?? [];
    expect(documented.sort()).toEqual([...actions].sort());
  });

  it("documents, somewhere in docs/, every flag each command's own --help gives", async () => {
    const dir = new URL('../../docs/', import.meta.url);
    const docs = readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    const missing: string[] = [];
    let flags = 0;
    for (const command of new Set(await helpCommands())) {
      const r = await runCli([command, '--help']);
      expect(r.code, `${command} --help: ${r.err}`).toBe(0);
      for (const flag of new Set(r.out.match(/--[a-z][a-z0-9-]*/g) ?? [])) {
        flags++;
        // A flag is documented when it appears whole: `--ttl` is not documented by `--ttl-below`.
        if (!new RegExp(`${flag}(?![a-z0-9-])`).test(docs)) missing.push(`${command} ${flag}`);
      }
    }
    expect(flags).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});
