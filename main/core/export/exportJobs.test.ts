import { describe, expect, it } from 'vitest';
import { ExportJobs } from './exportJobs';

describe('an export download', () => {
  it('is served to the user who started it, once, and its bytes are what the export writes', async () => {
    const jobs = new ExportJobs();
    const ac = new AbortController();
    const waiting = jobs.waitForDownload('export_abcd1234', { user: 'ana', fileName: 'f.keys.ndjson', contentType: 'application/x-ndjson' }, ac.signal);
    expect(() => jobs.claim('export_abcd1234', 'bob')).toThrow(/started by someone else/);
    const d = jobs.claim('export_abcd1234', 'ana');
    expect(() => jobs.claim('export_abcd1234', 'ana')).toThrow(/No export waiting/);
    const { sink, end } = await waiting;
    const got: Buffer[] = [];
    d.body.on('data', (c: Buffer) => got.push(c));
    const ended = new Promise((r) => d.body.on('end', r));
    await sink.write(Buffer.from('{"key":"a"}\n'));
    end(true);
    await ended;
    expect(Buffer.concat(got).toString()).toBe('{"key":"a"}\n');
  });

  it('nobody fetching it ends the wait with a timeout, and a closed download fails the writes', async () => {
    const jobs = new ExportJobs();
    await expect(jobs.waitForDownload('export_late1234', { user: 'ana', fileName: 'f', contentType: 't' }, new AbortController().signal, 20)).rejects.toThrow(
      /Nobody fetched/,
    );
    const waiting = jobs.waitForDownload('export_gone1234', { user: 'ana', fileName: 'f', contentType: 't' }, new AbortController().signal);
    const d = jobs.claim('export_gone1234', 'ana');
    const { sink } = await waiting;
    d.body.destroy();
    await expect(sink.write(Buffer.alloc(10))).rejects.toThrow(/download was closed/);
  });
});
