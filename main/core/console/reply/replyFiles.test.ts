import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReplyFiles, type ReplyFileLimits } from './replyFiles';

const root = mkdtempSync(join(tmpdir(), 'cacheboard-replyfiles-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (limits: Partial<ReplyFileLimits> = {}): ReplyFiles => new ReplyFiles(join(root, `d${n++}`, 'replies'), limits);

async function make(files: ReplyFiles, owner: string, text: string): Promise<string> {
  const w = files.create(owner);
  w.write(text);
  expect(await w.finish()).toBe(Buffer.byteLength(text));
  return w.id;
}

async function readAll(files: ReplyFiles, id: string, owner: string): Promise<string> {
  const f = await files.open(id, owner);
  try {
    return (await f.read(0, f.total)).toString();
  } finally {
    f.close();
  }
}

describe('ReplyFiles', () => {
  it('writes files 0600 in a folder made 0700, under random ids, read back in pieces', async () => {
    const files = fresh();
    const id = await make(files, 'alice', 'hello world');
    const other = await make(files, 'alice', 'x');
    expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(other).not.toBe(id);
    expect(statSync(files.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(files.dir, `${id}.txt`)).mode & 0o777).toBe(0o600);
    const f = await files.open(id, 'alice');
    expect(f.total).toBe(11);
    expect((await f.read(6, 100)).toString()).toBe('world');
    expect((await f.read(11, 5)).length).toBe(0);
    f.close();
  });

  it("answers another owner's id, an unfinished file and a made-up id alike: NOT_FOUND", async () => {
    const files = fresh();
    const id = await make(files, 'alice', 'secret');
    const unfinished = files.create('alice');
    unfinished.write('half');
    const errors = await Promise.all(
      [
        [id, 'bob'],
        [unfinished.id, 'alice'],
        ['madeUpButWellFormed00000', 'alice'],
        ['../etc/passwd', 'alice'],
      ].map(([i, o]) => files.open(i as string, o as string).catch((e: unknown) => e)),
    );
    for (const e of errors) expect(e).toMatchObject({ code: 'NOT_FOUND', message: (errors[0] as Error).message });
    expect(await readAll(files, id, 'alice')).toBe('secret');
    unfinished.discard();
    expect(readdirSync(files.dir)).toEqual([`${id}.txt`]);
  });

  it('keeps at most `files` files, dropping the oldest', async () => {
    let clock = 1000;
    const files = fresh({ files: 3, now: () => clock++ });
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await make(files, 'alice', `file ${i}`));
    await expect(files.open(ids[0] as string, 'alice')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    for (const id of ids.slice(1)) expect(await readAll(files, id, 'alice')).toMatch(/^file/);
    expect(readdirSync(files.dir)).toHaveLength(3);
  });

  it("counts each user's files apart: one user filling their quota removes only their own", async () => {
    let clock = 1000;
    const files = fresh({ files: 3, now: () => clock++ });
    const theirs = await make(files, 'ops', 'ops download');
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push(await make(files, 'analyst', `file ${i}`));
    expect(await readAll(files, theirs, 'ops')).toBe('ops download');
    await expect(files.open(mine[1] as string, 'analyst')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await readAll(files, mine[4] as string, 'analyst')).toBe('file 4');
    expect(readdirSync(files.dir)).toHaveLength(4);
  });

  it("keeps one user's bytes under their bound without touching another's; the whole server's full, the heaviest user gives way", async () => {
    let clock = 1000;
    const files = fresh({ bytes: 100, totalBytes: 150, now: () => clock++ });
    const ops = await make(files, 'ops', 'o'.repeat(40));
    await make(files, 'analyst', 'a'.repeat(60));
    const last = await make(files, 'analyst', 'b'.repeat(60));
    expect(await readAll(files, ops, 'ops')).toBe('o'.repeat(40));
    expect(await readAll(files, last, 'analyst')).toBe('b'.repeat(60));
    // 40 + 60 + 60 > 150: the analyst, who holds the most, lost their oldest.
    expect(readdirSync(files.dir)).toHaveLength(2);
    const other = await make(files, 'third', 't'.repeat(60));
    expect(await readAll(files, ops, 'ops')).toBe('o'.repeat(40));
    expect(await readAll(files, other, 'third')).toBe('t'.repeat(60));
  });

  it('keeps the bytes of all files under the bound, dropping the oldest; one file past it ends with a note', async () => {
    let clock = 1000;
    const files = fresh({ bytes: 100, now: () => clock++ });
    const a = await make(files, 'alice', 'a'.repeat(60));
    const b = await make(files, 'alice', 'b'.repeat(60));
    await expect(files.open(a, 'alice')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await readAll(files, b, 'alice')).toBe('b'.repeat(60));
    const w = files.create('alice');
    for (let i = 0; i < 30; i++) w.write('0123456789');
    await w.finish();
    expect(await readAll(files, w.id, 'alice')).toMatch(/^(0123456789){10}\n\(… the rest is not in this file: downloads hold at most 100 bytes\)\n$/);
  });

  it('forgets files after `ageMs`', async () => {
    let clock = 0;
    const files = fresh({ ageMs: 1000, now: () => clock });
    const id = await make(files, 'alice', 'old');
    clock = 999;
    expect(await readAll(files, id, 'alice')).toBe('old');
    clock = 1001;
    await expect(files.open(id, 'alice')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(readdirSync(files.dir)).toEqual([]);
  });

  it('refuses a symlink at the folder or in place of a file, and sweeps files an earlier run left', async () => {
    const target = join(root, 'elsewhere');
    mkdirSync(target);
    const linked = join(root, 'linked');
    symlinkSync(target, linked);
    expect(() => new ReplyFiles(linked).create('alice')).toThrow(/is a symbolic link: refused/);

    const files = fresh();
    const id = await make(files, 'alice', 'mine');
    writeFileSync(join(target, 'secret'), 'not yours');
    rmSync(join(files.dir, `${id}.txt`));
    symlinkSync(join(target, 'secret'), join(files.dir, `${id}.txt`));
    await expect(files.open(id, 'alice')).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const again = fresh();
    mkdirSync(again.dir, { recursive: true });
    writeFileSync(join(again.dir, 'AAAAAAAAAAAAAAAAAAAAAAAA.txt'), 'left by an earlier run');
    writeFileSync(join(again.dir, 'notes.md'), 'not ours');
    const kept = await make(again, 'alice', 'new');
    expect(readdirSync(again.dir).sort()).toEqual([`${kept}.txt`, 'notes.md'].sort());
  });
});
