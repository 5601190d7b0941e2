import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog, foldRuns } from '../../core/audit/auditLog';
import { filterText, MonitorAudit } from './monitorAudit';

const dir = mkdtempSync(join(tmpdir(), 'cb-monaudit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ops = { user: 'olga', role: 'ops' as const };
const all = { sampleEvery: 1, hideOwn: true };
const sets = { commands: ['SET'], sampleEvery: 1, hideOwn: true };
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MonitorAudit', () => {
  it('three panes with one filter are one view; a filter change is one more: two rows, each naming every node', async () => {
    const log = new AuditLog(join(dir, 'a.log'));
    const views = new MonitorAudit(log, 30);
    const first = ['h:1', 'h:2', 'h:3'].map((a) => views.open(ops, 'p1', a, all));
    for (const close of first) close();
    // The page opens the new filter's panes as the old ones close.
    const second = ['h:1', 'h:2', 'h:3'].map((a) => views.open(ops, 'p1', a, sets));
    for (const close of second) close();
    await settle(80);
    const rows = foldRuns(log.tail(100));
    expect(rows.map((r) => [r.action, r.outcome, r.detail])).toEqual([
      ['monitor', 'ok', "commands SET, Cacheboard's own hidden; watched 3 nodes: h:1, h:2, h:3"],
      ['monitor', 'ok', "all commands, Cacheboard's own hidden; watched 3 nodes: h:1, h:2, h:3"],
    ]);
    expect(rows.every((r) => r.user === 'olga' && typeof r.durationMs === 'number')).toBe(true);
  });

  it('a pane closed and opened again within the grace stays the same view', async () => {
    const log = new AuditLog(join(dir, 'b.log'));
    const views = new MonitorAudit(log, 50);
    views.open(ops, 'p1', 'h:1', all)();
    await settle(10);
    const again = views.open(ops, 'p1', 'h:1', all);
    await settle(80);
    expect(log.tail(10).map((e) => e.outcome)).toEqual(['started']);
    again();
    await settle(80);
    expect(foldRuns(log.tail(10)).map((e) => e.outcome)).toEqual(['ok']);
  });

  it('says the filter in the page words', () => {
    expect(filterText({ commands: ['GET', 'SET'], keyGlob: 'user:*', client: '10.0.0.5', db: 2, sampleEvery: 10, hideOwn: false })).toBe(
      "commands GET SET, keys user:*, client 10.0.0.5, DB 2, 1 in 10, Cacheboard's own shown",
    );
  });
});
