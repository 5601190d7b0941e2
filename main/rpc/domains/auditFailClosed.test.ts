import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Name } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { AuditLog, type AuditEntry } from '../../core/audit/auditLog';
import { consoleServices } from '../../core/console/run/consoleServices';
import { openKey } from '../../core/keys/edit/editTestKit';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { consoleHandlers } from './console';
import { roleClients } from './domainRpcTestKit';
import { keysEditHandler } from './keys';

/*
 * The data dir on a small tmpfs of its own, filled to the last byte: every write that must be
 * audited is refused (its record cannot be written first), and once space is back the log
 * holds what was refused and what came after. Where mount is not permitted, audit.log is a
 * link to /dev/full, whose writes fail with ENOSPC the same way.
 */

const redis = useRedis();
const work = mkdtempSync(join(tmpdir(), 'cb-audit-full-'));
const dataDir = join(work, 'data');
const auditFile = join(dataDir, 'audit.log');
let disk: { fill(): void; free(): void; close(): void };
let pool: Pool;
let other: Redis;
let as: ReturnType<typeof roleClients>;

/** A tmpfs of 256 KiB at `dir`, or (mount refused) audit.log linked to /dev/full. */
function smallDisk(dir: string): typeof disk {
  execFileSync('mkdir', ['-p', dir]);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return {
      fill: () => symlinkSync('/dev/full', auditFile),
      free: () => rmSync(auditFile, { force: true }),
      close: () => undefined,
    };
  }
  const filler = join(dir, 'filler');
  return {
    fill() {
      const fd = openSync(filler, 'w');
      try {
        const chunk = Buffer.alloc(4096, 1);
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    close: () => execFileSync('umount', [dir]),
  };
}

beforeAll(async () => {
  disk = smallDisk(dataDir);
  const profiles = new ProfileStore({
    dataDir,
    secretBox: noSecretBox('tests'),
    definitionLocked: [{ id: 'local', source: 'config', spec: specFor(redis(), { name: 'local' }) }],
  });
  pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const audit = new AuditLog(auditFile);
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const handlers = {
    ...unused,
    'keys.edit': keysEditHandler({ profiles, pool, audit }),
    // Console history and reply files live elsewhere: only the audit log is on the full disk.
    ...consoleHandlers({ profiles, pool, audit, console: consoleServices(join(work, 'console')) }),
  } as Handlers;
  as = roleClients(new Dispatcher(handlers, { streamIntervalMs: 5 }));
  other = await adminClient(redis());
});
afterAll(async () => {
  await pool.shutdown();
  await closeAdmins();
  disk.close();
  rmSync(work, { recursive: true, force: true });
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
let runs = 0;
const consoleRun = (line: string) => as('ops').invoke('console.run', { profileId: 'local', consoleId: 'console-1', runId: `run-${++runs}`, line });
const refusal = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    (r) => {
      throw new Error(`not refused: ${JSON.stringify(r).slice(0, 200)}`);
    },
    (e: AppError) => e,
  );
const entries = (): AuditEntry[] => {
  let text: string;
  try {
    text = readFileSync(auditFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditEntry);
};

describe('writes that must be audited fail closed', () => {
  it('on a full disk a key delete and a console SET are refused, unchanged in Redis; once space is back the log holds the refusals and what follows', async () => {
    await other.set('doomed', 'v');
    await other.set('counter', 'old');
    const seen = await openKey(other, 'doomed');
    disk.fill();

    const del = await refusal(as('ops').invoke('keys.edit', { profileId: 'local', key: b64('doomed'), edit: { op: 'delete', seen } }));
    expect(del.code).toBe('AUDIT_UNAVAILABLE');
    expect(del.message).toMatch(/audit log cannot be written \(ENOSPC: no space left on device\).*Nothing was changed/);
    const set = await refusal(consoleRun('SET counter new'));
    expect(set.code).toBe('AUDIT_UNAVAILABLE');
    expect(await other.get('doomed')).toBe('v');
    expect(await other.get('counter')).toBe('old');
    expect(entries()).toEqual([]);
    // A read is not audited: it runs on a full disk.
    expect(await consoleRun('GET counter')).toMatchObject({ status: 'done' });

    disk.free();
    expect(await consoleRun('SET counter newer')).toMatchObject({ status: 'done' });
    expect(await other.get('counter')).toBe('newer');
    const log = entries();
    // The two refused attempts first (held while the disk was full), then the SET's start and end.
    expect(log.map((e) => [e.action, e.outcome])).toEqual([
      ['keys.delete', 'refused'],
      ['console', 'refused'],
      ['console', 'started'],
      ['console', 'ok'],
    ]);
    expect(log[0]?.detail).toMatch(/UNLINK doomed; refused: the audit log could not be written \(ENOSPC/);
    expect(log[1]?.detail).toMatch(/^SET "counter"; refused: the audit log could not be written/);
    expect(log[2]?.run).toBe(log[3]?.run);
    expect(log.every((e) => e.user === 'ops-user')).toBe(true);
  });
});
