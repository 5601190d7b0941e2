import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../app/errors';
import { AuditLog, foldRuns, type AuditEntry } from './auditLog';

const dir = mkdtempSync(join(tmpdir(), 'cb-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('AuditLog', () => {
  it('appends one JSON line per entry in a 0600 file and reads back the newest first', () => {
    const file = join(dir, 'a.log');
    const log = new AuditLog(file);
    expect(log.tail(5)).toEqual([]);
    for (let i = 0; i < 30; i++) log.append({ user: 'ana', action: 'bgsave', target: '127.0.0.1:1', outcome: 'ok', detail: `n=${i}` });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(30);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ user: 'ana', action: 'bgsave', outcome: 'ok', detail: 'n=0' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const tail = log.tail(3);
    expect(tail.map((e) => e.detail)).toEqual(['n=29', 'n=28', 'n=27']);
  });

  it('reads back across its read chunks and skips a torn line', () => {
    const file = join(dir, 'b.log');
    const log = new AuditLog(file);
    const long = 'x'.repeat(1000);
    for (let i = 0; i < 600; i++) log.append({ user: 'u', action: 'monitor.start', target: 't', outcome: 'started', detail: `${i}:${long}` });
    const all = log.tail(1000);
    expect(all).toHaveLength(600);
    expect(all.at(-1)?.detail?.startsWith('0:')).toBe(true);
  });
});

describe('AuditLog on a file that cannot be written', () => {
  // /dev/full answers every write with ENOSPC, as a full disk does.
  it('appendFirst throws AUDIT_UNAVAILABLE; what append could not write is held and written ahead of the next entry, with a count of any dropped', () => {
    const file = join(dir, 'full.log');
    symlinkSync('/dev/full', file);
    const log = new AuditLog(file);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      let err: unknown;
      try {
        log.appendFirst({ user: 'ana', action: 'keys.delete', target: 't', outcome: 'started', detail: 'UNLINK k' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('AUDIT_UNAVAILABLE');
      for (let i = 0; i < 1001; i++) log.append({ user: 'ana', action: 'config.set', target: 't', outcome: 'ok', detail: `n=${i}` });
      expect(quiet).toHaveBeenCalled();
    } finally {
      quiet.mockRestore();
    }
    rmSync(file);
    log.append({ user: 'ana', action: 'bgsave', target: 't', outcome: 'ok', detail: 'after' });
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEntry);
    // The refused start (as refused), 999 of the 1,001 held ends, the line counting the 2 dropped, then the new one.
    expect(lines).toHaveLength(1002);
    expect(lines[0]).toMatchObject({
      action: 'keys.delete',
      outcome: 'refused',
      detail: 'UNLINK k; refused: the audit log could not be written (ENOSPC: no space left on device)',
    });
    expect(lines[999]?.detail).toBe('n=998');
    expect(lines[1000]).toMatchObject({ action: 'audit.gap', detail: '2 audit entries were lost while the audit log could not be written' });
    expect(lines[1001]?.detail).toBe('after');
  });
});

describe('foldRuns', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s)).toISOString();
  const e = (over: Partial<AuditEntry>): AuditEntry => ({ at: at(0), user: 'ana', action: 'bgsave', target: 'h:1', outcome: 'ok', ...over });

  it("folds each start into its end (newest first), keeping both details and the start's figures, with the duration", () => {
    const log = [
      e({ at: at(9), run: 'b', outcome: 'started', detail: 'b1' }),
      e({ at: at(7), run: 'a', outcome: 'ok', detail: 'done', figures: [{ n: 5, unit: 'records' }] }),
      e({ at: at(6), action: 'keys.delete', detail: 'single event' }),
      e({ at: at(4), run: 'a', outcome: 'started', detail: 'users.csv', figures: [{ n: 2, unit: 'days' }] }),
    ];
    expect(foldRuns(log)).toEqual([
      log[0],
      {
        ...log[1],
        detail: 'users.csv; done',
        figures: [
          { n: 2, unit: 'days' },
          { n: 5, unit: 'records' },
        ],
        durationMs: 3000,
      },
      log[2],
    ]);
  });

  it('keeps a duration the end wrote, and an end that repeats its start says it once', () => {
    const log = [
      e({ at: at(5), run: 'a', outcome: 'failed', detail: 'j1 f.csv, 3 errors', durationMs: 1234 }),
      e({ at: at(1), run: 'a', outcome: 'started', detail: 'j1 f.csv' }),
    ];
    expect(foldRuns(log)).toEqual([{ ...log[0] }]);
  });

  it('leaves entries without a run id alone, as the log held them before runs were paired', () => {
    const old = [e({ outcome: 'ok' }), e({ outcome: 'started' })];
    expect(foldRuns(old)).toEqual(old);
  });
});
