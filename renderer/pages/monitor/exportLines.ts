import type { Row } from './rows';

export type ExportFormat = 'ndjson' | 'text';

/**
 * One JSON object a line: each line as the server sent it, with its node; a
 * gap or a note is an object of its own (`gap`, `note`), so a reader can tell
 * a quiet node from a missing stretch.
 */
export function toNdjson(rows: readonly Row[], node: string): string {
  let out = '';
  for (const r of rows) {
    const o = r.kind === 'line' ? { node, ...r.line } : r.gap !== undefined ? { node, gap: r.gap } : { node, note: r.text };
    out += `${JSON.stringify(o)}\n`;
  }
  return out;
}

/**
 * MONITOR's own format (`1339518083.107412 [0 127.0.0.1:60866] "SET" "k" "v"`),
 * which tools such as redis-faina read. The arguments are written back as the
 * server escaped them; a line whose arguments were cut says so after a `#`.
 */
export function toMonitorText(rows: readonly Row[]): string {
  let out = '';
  for (const r of rows) {
    if (r.kind === 'mark') {
      out += `# ${r.text}\n`;
      continue;
    }
    const l = r.line;
    const args = l.args.map((a) => ` "${a}"`).join('');
    const cut = [l.truncated ? 'arguments cut at 1 KB' : '', l.moreArgs > 0 ? `${l.moreArgs} more arguments not kept` : ''].filter((s) => s !== '').join(', ');
    out += `${(l.ts / 1000).toFixed(6)} [${l.db} ${l.client}] "${l.command}"${args}${cut === '' ? '' : ` # ${cut}`}\n`;
  }
  return out;
}

/** "monitor-127.0.0.1_6379-20260102-093000.ndjson": a name every file system takes. */
export function exportName(node: string, format: ExportFormat, now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
  return `monitor-${node.replace(/[^A-Za-z0-9.-]+/g, '_')}-${stamp}.${format === 'ndjson' ? 'ndjson' : 'txt'}`;
}
