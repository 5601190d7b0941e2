import { matchPatternList } from './hostPattern';

/** One `Host` block of an ssh_config file: its patterns and its options in file order (keys lower-cased). */
interface HostBlock {
  patterns: string[] | null;
  options: [string, string][];
}

/**
 * Parse ssh_config text into blocks. Options before the first `Host` apply to every host (patterns null).
 * `Match` blocks are skipped: their criteria (exec, user, …) need more than a host name to evaluate,
 * so ignoring them is safer than applying them to everyone.
 */
export function parseSshConfig(text: string): HostBlock[] {
  const blocks: HostBlock[] = [{ patterns: null, options: [] }];
  let current: HostBlock | undefined = blocks[0];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(\S+?)(?:\s*=\s*|\s+)(.*)$/.exec(line);
    if (!m) continue;
    const key = (m[1] ?? '').toLowerCase();
    const values = splitArgs(m[2] ?? '');
    if (key === 'host') {
      current = { patterns: values, options: [] };
      blocks.push(current);
    } else if (key === 'match') {
      current = undefined;
    } else if (current !== undefined) {
      current.options.push([key, values.join(' ')]);
    }
  }
  return blocks;
}

/** The options that apply to `host`: the first value of each keyword wins, as in OpenSSH. */
export function optionsForHost(blocks: readonly HostBlock[], host: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of blocks) {
    if (block.patterns !== null && !matchPatternList(block.patterns, host)) continue;
    for (const [key, value] of block.options) if (!out.has(key)) out.set(key, value);
  }
  return out;
}

function splitArgs(s: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) out.push(m[1] ?? m[2] ?? '');
  return out;
}
