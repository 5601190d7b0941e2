import { describe, expect, it } from 'vitest';
import { keyActions } from '../../../../app/schemas/keyActions';
import { controlOf, formFor, isWholeDb, startInput, type ActionForm, type ActionTarget } from './actionForm';

const schema = keyActions['keys.actions.start'].input;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const target = (match: string, extra: Partial<ActionTarget> = {}): ActionTarget => ({
  source: 'folder',
  match,
  matchB64: b64(match),
  type: undefined,
  noTtl: false,
  ...extra,
});
const input = (form: ActionForm, t: ActionTarget, dryRun = true, confirm = '') => startInput({ form, target: t, profileId: 'p1', db: 3, dryRun, confirm });

/** Where the contract refuses an input: the field path the server would name. */
function refusedAt(value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
}

describe('formFor', () => {
  it('starts from the list’s filters and the action clicked', () => {
    const f = formFor(target('user:*', { source: 'list', type: 'hash', noTtl: true }), 'expire');
    expect(f).toMatchObject({ op: 'expire', type: 'hash', ttl: 'none', fullSpeed: false });
    expect(formFor(target('user:*'), 'delete')).toMatchObject({ op: 'delete', type: '', ttl: 'any' });
  });
});

describe('startInput', () => {
  it('sends the glob’s bytes and only the filters that narrow, which the contract takes', () => {
    const f = { ...formFor(target('cache:*'), 'delete'), type: 'string' as const, ttl: 'below' as const, ttlSeconds: '60', idleMin: '3600', minMemory: '1024' };
    const i = input(f, target('cache:*'));
    expect(i.selection).toEqual({ match: b64('cache:*'), type: 'string', ttl: 'below', ttlSeconds: 60, idleMinSeconds: 3600, minMemoryBytes: 1024 });
    expect(i).toMatchObject({ profileId: 'p1', db: 3, action: { op: 'delete' }, pace: { maxLatencyMs: 2 }, dryRun: true });
    expect(refusedAt(i)).toEqual([]);
  });

  it('leaves the TTL seconds out unless the filter is a bound', () => {
    const f = { ...formFor(target('a*'), 'persist'), ttl: 'none' as const, ttlSeconds: '60' };
    expect(input(f, target('a*')).selection).toEqual({ match: b64('a*'), ttl: 'none' });
  });

  it('sends an expire with NX and a decimal jitter; full speed is no latency budget', () => {
    const f = { ...formFor(target('s:*'), 'expire'), seconds: '3600', onlyNoTtl: true, jitter: '2.5', fullSpeed: true };
    const i = input(f, target('s:*'));
    expect(i.action).toEqual({ op: 'expire', seconds: 3600, onlyNoTtl: true, jitterPct: 2.5 });
    expect(i.pace).toEqual({ maxLatencyMs: null });
    expect(refusedAt(i)).toEqual([]);
  });

  it('lets the contract name what is wrong, at a path controlOf places beside its input', () => {
    const f = { ...formFor(target('s:*'), 'expire'), seconds: '', jitter: 'lots', ttl: 'above' as const, ttlSeconds: '', minMemory: '1k' };
    const paths = refusedAt(input(f, target('s:*')));
    expect(paths).toEqual(expect.arrayContaining(['action.seconds', 'action.jitterPct', 'selection.minMemoryBytes']));
    for (const p of paths) expect(controlOf(p)).toBe(p);
    // The bound's missing seconds: the selection's own refinement names ttlSeconds.
    const bound = refusedAt(input({ ...formFor(target('s:*'), 'delete'), ttl: 'above' }, target('s:*')));
    expect(bound).toEqual(['selection.ttlSeconds']);
    expect(controlOf('selection.ttlSeconds')).toBe('selection.ttlSeconds');
    expect(controlOf('profileId')).toBeUndefined();
    expect(controlOf(undefined)).toBeUndefined();
  });

  it('sends the typed-back DB only with a real run', () => {
    const f = formFor(target('*'), 'delete');
    expect(input(f, target('*'), true, '3').confirmDb).toBeUndefined();
    expect(input(f, target('*'), false, '3').confirmDb).toBe(3);
    expect(input(f, target('*'), false, '').confirmDb).toBeUndefined();
  });

  it('names the cut run a real run resumes', () => {
    const i = startInput({
      form: formFor(target('a*'), 'delete'),
      target: target('a*'),
      profileId: 'p1',
      db: 0,
      dryRun: false,
      confirm: '',
      resume: 'kaAbC123',
    });
    expect(i.resume).toBe('kaAbC123');
    expect(refusedAt(i)).toEqual([]);
  });
});

describe('isWholeDb', () => {
  it('is `*` with no filter, and nothing narrower', () => {
    const f = formFor(target('*'), 'delete');
    expect(isWholeDb(f, target('*'))).toBe(true);
    expect(isWholeDb(f, target('user:*'))).toBe(false);
    expect(isWholeDb({ ...f, type: 'hash' }, target('*'))).toBe(false);
    expect(isWholeDb({ ...f, ttl: 'none' }, target('*'))).toBe(false);
    expect(isWholeDb({ ...f, idleMin: '60' }, target('*'))).toBe(false);
    expect(isWholeDb({ ...f, minMemory: '100' }, target('*'))).toBe(false);
    // A glob-escaped star is one key named `*`, not the whole DB.
    expect(isWholeDb(f, target('\\\\*', { matchB64: b64('\\*') }))).toBe(false);
  });
});
