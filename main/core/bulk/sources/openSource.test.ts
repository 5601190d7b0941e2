import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../app/errors';
import type { CommandSource } from '../types';
import type { CommandBatch } from '../../resp/types';
import { detectFormat, openSource, previewSource, unknownFormatMessage } from './openSource';
import { decodeCommands } from '../../resp/respTestKit';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function collect(source: CommandSource, signal?: AbortSignal): Promise<CommandBatch[]> {
  const out: CommandBatch[] = [];
  for await (const b of source.batches(signal)) out.push(b);
  return out;
}

describe('detectFormat', () => {
  it('knows each format by its extensions, in any case', () => {
    expect(detectFormat('dump.resp')).toBe('resp');
    expect(detectFormat('dump.REDIS')).toBe('resp');
    expect(detectFormat('ops.txt')).toBe('commands');
    expect(detectFormat('ops.cmd')).toBe('commands');
    expect(detectFormat('ops.commands')).toBe('commands');
    expect(detectFormat('ops.redis-cli')).toBe('commands');
    expect(detectFormat('/data/users.csv')).toBe('csv');
    expect(detectFormat('C:\\data\\users.tsv')).toBe('tsv');
    expect(detectFormat('users.tab')).toBe('tsv');
    expect(detectFormat('events.ndjson')).toBe('ndjson');
    expect(detectFormat('events.jsonl')).toBe('ndjson');
  });

  it('returns undefined for unknown or missing extensions, and the message names the file and formats', () => {
    expect(detectFormat('data.json')).toBeUndefined();
    expect(detectFormat('README')).toBeUndefined();
    expect(detectFormat('.csv')).toBeUndefined();
    expect(detectFormat('dir.csv/file')).toBeUndefined();
    // An export's own names: what it writes, and loads back key by key.
    expect(detectFormat('cacheboard-export-1.keys.ndjson')).toBe('keys-ndjson');
    expect(detectFormat('x.KEYS.CSV')).toBe('keys-csv');
    expect(unknownFormatMessage('data.json')).toMatch(/"data\.json".*resp, commands, csv, tsv, ndjson, keys-ndjson, keys-csv$/);
  });
});

describe('openSource', () => {
  it('streams a file in small reads and reports its size', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `${i},${'é'.repeat(i % 7)}value${i}`).join('\r\n');
    const path = file('big.csv', `id,v\r\n${rows}\r\n`);
    const source = await openSource(
      path,
      { file: 'big.csv', format: 'csv', mapping: { key: 'k:{id}', type: 'string', value: 'v' }, batchBytes: 4096 },
      { chunkBytes: 5 },
    );
    expect(source.totalBytes).toBe(Buffer.byteLength(`id,v\r\n${rows}\r\n`));
    const batches = await collect(source);
    const cmds = batches.flatMap((b) => decodeCommands(b.resp));
    expect(cmds).toHaveLength(2000);
    expect(cmds[1999]?.map(String)).toEqual(['SET', 'k:1999', `${'é'.repeat(1999 % 7)}value1999`]);
    expect(batches.at(-1)?.bytesRead).toBe(source.totalBytes);
    // Reading again starts from the top.
    expect((await collect(source)).reduce((n, b) => n + b.count, 0)).toBe(2000);
  });

  it('stops when the signal aborts', async () => {
    const path = file('abort.txt', 'PING\n'.repeat(50_000));
    const source = await openSource(path, { file: 'abort.txt', format: 'commands', batchBytes: 1024 }, { chunkBytes: 4096 });
    const ctl = new AbortController();
    let seen = 0;
    await expect(
      (async () => {
        for await (const b of source.batches(ctl.signal)) {
          seen += b.count;
          ctl.abort();
        }
      })(),
    ).rejects.toThrow(/abort/i);
    expect(seen).toBeLessThan(50_000);
  });

  it('refuses a tabular file without a mapping, and commands with one', async () => {
    const csv = file('m.csv', 'id\n1\n');
    await expect(openSource(csv, { file: 'm.csv', format: 'csv' })).rejects.toBeInstanceOf(AppError);
    const resp = file('m.resp', '*1\r\n$4\r\nPING\r\n');
    await expect(openSource(resp, { file: 'm.resp', format: 'resp', mapping: { key: 'k', type: 'string', value: 'v' } })).rejects.toThrow(/already commands/);
  });

  it('puts the file label, not the path, in error positions', async () => {
    const path = file('x.txt', 'SET a "b\n');
    const source = await openSource(path, { file: 'ops.txt', format: 'commands' });
    await expect(collect(source)).rejects.toThrow('ops.txt:1:9: unterminated quote opened at column 7');
  });
});

describe('previewSource', () => {
  it('shows the first rows as commands, with their lines and the header', async () => {
    const path = file('p.csv', 'id,name\n1,Ann\n2,"B\nob"\n3,Cy\n');
    const p = await previewSource(path, { file: 'p.csv', format: 'csv', mapping: { key: 'u:{id}', type: 'string', value: 'name' } }, 2);
    expect(p).toEqual({
      columns: ['id', 'name'],
      rows: [
        { line: 2, args: ['SET', 'u:1', 'Ann'] },
        { line: 3, args: ['SET', 'u:2', 'B\\nob'] },
      ],
    });
  });

  it('escapes bytes that are not printable UTF-8 the way redis-cli shows them', async () => {
    const bin = Buffer.concat([
      Buffer.from('*2\r\n$3\r\nGET\r\n$9\r\n'),
      Buffer.from([0x00, 0x07, 0x09, 0xff, 0x5c]),
      Buffer.from('ключ'.slice(0, 2)),
      Buffer.from('\r\n'),
    ]);
    const path = file('p.resp', bin);
    const p = await previewSource(path, { file: 'p.resp', format: 'resp' }, 10);
    expect(p.rows).toEqual([{ line: 1, args: ['GET', '\\x00\\a\\t\\xff\\\\кл'] }]);
  });

  it('shows the records as they are when no mapping is chosen yet', async () => {
    const path = file('raw.ndjson', '{"id":1,"tags":["a"]}\n{"tags":"b","id":2}\n');
    const p = await previewSource(path, { file: 'raw.ndjson', format: 'ndjson' }, 10);
    expect(p.columns).toEqual(['id', 'tags']);
    expect(p.rows.map((r) => r.args)).toEqual([
      ['1', '["a"]'],
      ['2', 'b'],
    ]);
  });

  it('returns the rows before a malformed one, and the error', async () => {
    const path = file('bad.txt', 'SET a 1\nSET b 2\nSET c "3\nSET d 4\n');
    const p = await previewSource(path, { file: 'bad.txt', format: 'commands' }, 10);
    expect(p.rows.map((r) => r.args[1])).toEqual(['a', 'b']);
    expect(p.error).toBe('bad.txt:3:9: unterminated quote opened at column 7');
  });

  it('does not report an error beyond the previewed rows', async () => {
    const path = file('late.txt', 'SET a 1\nSET b 2\nSET c "3\n');
    const p = await previewSource(path, { file: 'late.txt', format: 'commands' }, 2);
    expect(p.rows).toHaveLength(2);
    expect(p.error).toBeUndefined();
  });

  it('cuts long values for display', async () => {
    const path = file('long.txt', `SET k ${'x'.repeat(1000)}\n`);
    const p = await previewSource(path, { file: 'long.txt', format: 'commands' }, 1);
    expect(p.rows[0]?.args[2]).toBe(`${'x'.repeat(256)}… (+744 bytes)`);
  });
});
