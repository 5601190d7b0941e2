import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HISTORY_LINES } from '../../../app/schemas/console';
import { ConsoleHistory, HISTORY_LINE_CHARS, HISTORY_TOTAL_CHARS } from './history';

const root = mkdtempSync(join(tmpdir(), 'cacheboard-history-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A history in a fresh folder. */
function fresh(): { history: ConsoleHistory; dir: string } {
  const dir = join(root, `h${n++}`);
  return { history: new ConsoleHistory(dir), dir };
}
const userDir = (dir: string, user: string): string => join(dir, createHash('sha256').update(user).digest('hex'));

describe('ConsoleHistory', () => {
  it('keeps lines per user and profile, newest last, across instances', () => {
    const { history, dir } = fresh();
    expect(history.list('alice', 'prod')).toEqual([]);
    history.add('alice', 'prod', 'GET a');
    history.add('alice', 'prod', 'SET a 1');
    history.add('alice', 'stage', 'PING');
    history.add('bob', 'prod', 'DBSIZE');
    const again = new ConsoleHistory(dir);
    expect(again.list('alice', 'prod')).toEqual(['GET a', 'SET a 1']);
    expect(again.list('alice', 'stage')).toEqual(['PING']);
    expect(again.list('bob', 'prod')).toEqual(['DBSIZE']);
    expect(again.list('carol', 'prod')).toEqual([]);
  });

  it('keeps a line equal to the one before it once, and no empty line', () => {
    const { history } = fresh();
    for (const line of ['GET a', 'GET a', 'GET b', 'GET a', 'GET a', '', '   ']) history.add('u', 'p', line);
    expect(history.list('u', 'p')).toEqual(['GET a', 'GET b', 'GET a']);
  });

  it('keeps the newest HISTORY_LINES, and no line too long to keep whole', () => {
    const { history, dir } = fresh();
    history.add('u', 'p', 'PING');
    // Seeded whole (an add is an fsync'd write: 500 of them are seconds on a slow disk).
    const seeded = Array.from({ length: HISTORY_LINES + 24 }, (_, i) => `SET k ${i}`);
    writeFileSync(join(userDir(dir, 'u'), 'p.json'), JSON.stringify({ version: 1, lines: seeded }));
    expect(history.list('u', 'p')).toEqual(seeded.slice(24));
    history.add('u', 'p', 'GET last');
    const lines = history.list('u', 'p');
    expect(lines).toHaveLength(HISTORY_LINES);
    expect(lines[0]).toBe('SET k 25');
    expect(lines.at(-1)).toBe('GET last');
    history.add('u', 'p', `SET big ${'x'.repeat(HISTORY_LINE_CHARS)}`);
    expect(history.list('u', 'p').at(-1)).toBe('GET last');
  });

  it('bounds the characters of one history, dropping the oldest lines', () => {
    const { history } = fresh();
    const line = (i: number): string => `SET k${i} ${'v'.repeat(HISTORY_LINE_CHARS - 20)}`;
    const count = Math.ceil(HISTORY_TOTAL_CHARS / HISTORY_LINE_CHARS) + 4;
    for (let i = 0; i < count; i++) history.add('u', 'p', line(i));
    const lines = history.list('u', 'p');
    expect(lines.join('').length).toBeLessThanOrEqual(HISTORY_TOTAL_CHARS);
    expect(lines.length).toBeLessThan(count);
    expect(lines.at(-1)).toBe(line(count - 1));
  });

  it('names the folder by a hash of the user, so no user name reaches the path', () => {
    const { history, dir } = fresh();
    for (const user of ['../../etc', '/abs', 'a/b\\c', '', 'ünï cødé', '\u0000']) history.add(user, 'p', 'PING');
    const folders = readdirSync(dir);
    expect(folders).toHaveLength(6);
    for (const f of folders) expect(f).toMatch(/^[0-9a-f]{64}$/);
    expect(readdirSync(userDir(dir, '../../etc'))).toEqual(['p.json']);
    expect(statSync(userDir(dir, '/abs')).mode & 0o777).toBe(0o700);
    expect(statSync(join(userDir(dir, '/abs'), 'p.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses a profile id that is not one', () => {
    const { history } = fresh();
    for (const bad of ['../x', 'a/b', '', 'a.json', 'x'.repeat(65), 'é']) {
      expect(() => history.add('u', bad, 'PING'), bad).toThrow(expect.objectContaining({ code: 'VALIDATION', field: 'profileId' }));
      expect(() => history.list('u', bad), bad).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
    }
  });

  it('refuses a symlink where the file was, without following it', () => {
    const { history, dir } = fresh();
    history.add('u', 'p', 'PING');
    const target = join(root, `target-${n}.json`);
    writeFileSync(target, JSON.stringify({ version: 1, lines: ['FROM THE TARGET'] }));
    const file = join(userDir(dir, 'u'), 'p.json');
    rmSync(file);
    symlinkSync(target, file);
    expect(() => history.list('u', 'p')).toThrow(expect.objectContaining({ code: 'CONFLICT', message: expect.stringMatching(/symbolic link/) }));
    expect(() => history.add('u', 'p', 'GET x')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ version: 1, lines: ['FROM THE TARGET'] });
  });

  it("refuses a symlink in place of the user's folder", () => {
    const { history, dir } = fresh();
    const elsewhere = join(root, `elsewhere-${n}`);
    mkdirSync(elsewhere);
    mkdirSync(dir);
    symlinkSync(elsewhere, userDir(dir, 'u'));
    expect(() => history.add('u', 'p', 'PING')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => history.list('u', 'p')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('sets a corrupt file aside and starts fresh', () => {
    const { history, dir } = fresh();
    history.add('u', 'p', 'PING');
    const file = join(userDir(dir, 'u'), 'p.json');
    for (const corrupt of ['{"version":1,"lines":["a",', '[]', '{"version":2,"lines":[]}', '{"version":1,"lines":[1]}', 'null']) {
      writeFileSync(file, corrupt);
      expect(history.list('u', 'p'), corrupt).toEqual([]);
      expect(existsSync(file)).toBe(false);
      expect(readFileSync(`${file}.corrupt`, 'utf8')).toBe(corrupt);
    }
    writeFileSync(file, 'garbage');
    history.add('u', 'p', 'GET a');
    expect(history.list('u', 'p')).toEqual(['GET a']);
    expect(readFileSync(`${file}.corrupt`, 'utf8')).toBe('garbage');
    // Only the last corrupt file is kept.
    expect(readdirSync(userDir(dir, 'u')).sort()).toEqual(['p.json', 'p.json.corrupt']);
  });
});
