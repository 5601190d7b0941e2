import { describe, expect, it } from 'vitest';
import type { MonitorLine } from '../../../app/schemas/monitor';
import { exportName, toMonitorText, toNdjson } from './exportLines';
import type { Row } from './rows';

const line: MonitorLine = {
  ts: 1339518083107.412,
  db: 0,
  client: '127.0.0.1:60866',
  command: 'SET',
  args: ['k', 'a b', '\\xff\\"'],
  moreArgs: 0,
  truncated: false,
};
const rows: Row[] = [
  { kind: 'line', seq: 0, line },
  { kind: 'mark', seq: 1, text: '— no lines from 10:00:00 to 10:00:05 (restart) —', gap: { from: 1, to: 2, reason: 'restart' } },
  { kind: 'line', seq: 2, line: { ...line, args: ['big'], truncated: true, moreArgs: 3 } },
  { kind: 'mark', seq: 3, text: 'watching again' },
];

describe('toNdjson', () => {
  it('writes one object a row, each line with its node', () => {
    const out = toNdjson(rows, '10.0.0.1:6379')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(4);
    expect(out[0]).toEqual({ node: '10.0.0.1:6379', ...line });
    expect(out[1]).toEqual({ node: '10.0.0.1:6379', gap: { from: 1, to: 2, reason: 'restart' } });
    expect(out[2]).toMatchObject({ truncated: true, moreArgs: 3 });
    expect(out[3]).toEqual({ node: '10.0.0.1:6379', note: 'watching again' });
  });
});

describe('toMonitorText', () => {
  it('writes MONITOR lines as the server printed them', () => {
    const text = toMonitorText(rows).split('\n');
    expect(text[0]).toBe('1339518083.107412 [0 127.0.0.1:60866] "SET" "k" "a b" "\\xff\\""');
    expect(text[1]).toBe('# — no lines from 10:00:00 to 10:00:05 (restart) —');
    expect(text[2]).toBe('1339518083.107412 [0 127.0.0.1:60866] "SET" "big" # arguments cut at 1 KB, 3 more arguments not kept');
    expect(text[4]).toBe('');
  });
});

describe('exportName', () => {
  it('names the node and the time, with no characters a file system refuses', () => {
    expect(exportName('[::1]:6379', 'ndjson', new Date(2026, 0, 2, 9, 3, 4))).toBe('monitor-_1_6379-20260102-090304.ndjson');
    expect(exportName('127.0.0.1:6379', 'text', new Date(2026, 10, 12, 13, 14, 15))).toBe('monitor-127.0.0.1_6379-20261112-131415.txt');
  });
});
