import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../app/errors';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { b64, openKey } from '../../core/keys/edit/editTestKit';
import { keysEditRpc, type KeysEditRpc } from './keysEditRpcTestKit';

const redis = useRedis();
let rpc: KeysEditRpc;
let other: Redis;

beforeAll(async () => {
  rpc = keysEditRpc([
    { id: 'local', source: 'config', spec: specFor(redis(), { name: 'local' }) },
    // The embedded server's profile, aimed at the same server: only its source differs.
    { id: 'embedded', source: 'embedded', spec: specFor(redis(), { name: 'Local (embedded)' }) },
  ]);
  other = await adminClient(redis());
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

const refused = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: AppError) => e,
  );

/** Script runs the server has counted (EVAL and EVALSHA). */
async function scriptCalls(): Promise<number> {
  const stats = await other.info('commandstats');
  return [...stats.matchAll(/cmdstat_(?:eval|evalsha):calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
}

describe('keys.edit over the contract', () => {
  it('an ops user edits; the audit log names who, the profile, the command and the key, and holds no value', async () => {
    const key = Buffer.from('user:\xff\r\n:1', 'latin1');
    await other.hset(key, 'field-in-view', 'VALUE-SEEN-BEFORE');
    const out = await rpc.edit('ops', {
      profileId: 'local',
      key: b64(key),
      edit: { op: 'hash.set', field: b64('SECRET-FIELD-NAME'), value: b64('SECRET-VALUE-BYTES'), expectValue: null, seen: await openKey(other, key) },
    });
    expect(out.key).toMatchObject({ text: 'user:\\xff\\r\\n:1', b64: b64(key) });
    expect(out.meta).toMatchObject({ exists: true, type: 'hash', length: 2 });
    expect(await other.hget(key, 'SECRET-FIELD-NAME')).toBe('SECRET-VALUE-BYTES');
    const entry = rpc.audit().at(-1);
    expect(entry).toMatchObject({ user: 'ops-user', action: 'keys.hash.set', target: 'profile local db 0', outcome: 'ok', detail: 'HSET user:\\xff\\r\\n:1' });
    const log = rpc.auditBytes();
    for (const secret of ['SECRET-VALUE-BYTES', 'SECRET-FIELD-NAME', 'VALUE-SEEN-BEFORE']) {
      expect(log.includes(secret)).toBe(false);
      expect(log.includes(b64(secret))).toBe(false);
    }
  });

  it('a stale edit is CONFLICT, and the audit log records the attempt as failed', async () => {
    await other.set('counter', 'AAAA');
    const seen = await openKey(other, 'counter');
    await other.set('counter', 'BBBB');
    const e = await refused(rpc.edit('ops', { profileId: 'local', key: b64('counter'), edit: { op: 'string.append', value: b64('X'), seen } }));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toMatch(/changed since you opened it/);
    expect(await other.get('counter')).toBe('BBBB');
    expect(rpc.audit().at(-1)).toMatchObject({ action: 'keys.string.append', outcome: 'failed', detail: 'APPEND counter: CONFLICT' });
  });

  it('a delete from a view of a value since replaced is CONFLICT: the new value stays', async () => {
    await other.set('lu:del', 'old');
    const seen = await openKey(other, 'lu:del');
    await other.set('lu:del', 'NEW-IMPORTANT');
    const e = await refused(rpc.edit('ops', { profileId: 'local', key: b64('lu:del'), edit: { op: 'delete', seen } }));
    expect(e.code).toBe('CONFLICT');
    expect(await other.get('lu:del')).toBe('NEW-IMPORTANT');
  });

  it('an edit of an existing key without what the view showed is refused naming edit.seen, before anything runs', async () => {
    await other.set('unseen', 'v');
    const before = await scriptCalls();
    const e = await refused(rpc.edit('ops', { profileId: 'local', key: b64('unseen'), edit: { op: 'delete' } }));
    expect(e).toMatchObject({ code: 'VALIDATION', field: 'edit.seen' });
    expect(await other.get('unseen')).toBe('v');
    expect(await scriptCalls()).toBe(before);
  });

  it('edits the DB it is given', async () => {
    await rpc.edit('ops', { profileId: 'local', db: 5, key: b64('in5'), edit: { op: 'create', type: 'set', value: b64('m') } });
    await other.select(5);
    expect(await other.smembers('in5')).toEqual(['m']);
    await other.select(0);
    expect(await other.exists('in5')).toBe(0);
    expect(rpc.audit().at(-1)).toMatchObject({ target: 'profile local db 5', detail: 'SADD in5' });
  });

  it("a binary key is renamed, then deleted, through the contract's base64", async () => {
    const from = Buffer.from([0xff, 0x0d, 0x0a, 0x61]);
    const to = Buffer.from([0x00, 0xfe, 0x0d]);
    await other.set(from, 'v');
    const renamed = await rpc.edit('ops', { profileId: 'local', key: b64(from), edit: { op: 'rename', to: b64(to), seen: await openKey(other, from) } });
    expect(renamed.key.b64).toBe(b64(to));
    expect(await other.getBuffer(to)).toEqual(Buffer.from('v'));
    const deleted = await rpc.edit('ops', { profileId: 'local', key: b64(to), edit: { op: 'delete', seen: await openKey(other, to) } });
    expect(deleted.meta.exists).toBe(false);
    expect(await other.exists(from, to)).toBe(0);
    expect(
      rpc
        .audit()
        .slice(-4)
        .map((a) => [a.outcome, a.detail]),
    ).toEqual([
      ['started', 'RENAMENX \\xff\\r\\na -> \\x00\\xfe\\r'],
      ['ok', 'RENAMENX \\xff\\r\\na -> \\x00\\xfe\\r'],
      ['started', 'UNLINK \\x00\\xfe\\r'],
      ['ok', 'UNLINK \\x00\\xfe\\r'],
    ]);
  });

  it("an analyst's edit is FORBIDDEN by the dispatcher: nothing runs, nothing is logged", async () => {
    await other.set('guarded', 'v');
    const seen = await openKey(other, 'guarded');
    const before = [await scriptCalls(), rpc.audit().length];
    const e = await refused(rpc.edit('analyst', { profileId: 'local', key: b64('guarded'), edit: { op: 'delete', seen } }));
    expect(e.code).toBe('FORBIDDEN');
    expect(await other.get('guarded')).toBe('v');
    expect([await scriptCalls(), rpc.audit().length]).toEqual(before);
  });

  it('the read-only embedded profile is refused with READ_ONLY before any Redis call', async () => {
    await other.set('demo', 'v');
    const seen = await openKey(other, 'demo');
    const before = await scriptCalls();
    const e = await refused(rpc.edit('ops', { profileId: 'embedded', key: b64('demo'), edit: { op: 'delete', seen } }));
    expect(e).toMatchObject({ code: 'READ_ONLY', field: 'profileId' });
    expect(await other.get('demo')).toBe('v');
    expect(await scriptCalls()).toBe(before);
  });

  it('the contract names a bad score or ID before anything runs', async () => {
    const seen = { type: 'zset', length: 1, ttl: 'none', digest: null };
    const e = await refused(
      rpc.edit('ops', { profileId: 'local', key: b64('z'), edit: { op: 'zset.add', member: b64('m'), score: 'lots', expectScore: null, seen } }),
    );
    expect(e).toMatchObject({ code: 'VALIDATION', field: 'edit.score' });
    const id = await refused(
      rpc.edit('ops', { profileId: 'local', key: b64('x'), edit: { op: 'stream.delete', id: '12-x', seen: { ...seen, type: 'stream' } } }),
    );
    expect(id).toMatchObject({ code: 'VALIDATION', field: 'edit.id' });
  });
});
