import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from './auditLog';

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
