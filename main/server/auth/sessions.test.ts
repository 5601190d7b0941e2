import { describe, expect, it } from 'vitest';
import { SessionStore } from './sessions';

describe('SessionStore', () => {
  it('gives opaque tokens and forgets them on logout, idle and absolute expiry', () => {
    let t = 0;
    const s = new SessionStore({ idleMs: 100, absoluteMs: 1000, now: () => t });
    const a = s.create('ana', 'analyst', 'stamp');
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(s.get(a)?.role).toBe('analyst');
    t = 90;
    expect(s.get(a)?.user).toBe('ana'); // activity refreshes the idle clock
    t = 180;
    expect(s.get(a)).toBeDefined();
    t = 290;
    expect(s.get(a)).toBeUndefined(); // idle 110 ms
    const b = s.create('ops', 'ops', 'stamp');
    for (t = 300; t <= 1400; t += 50) s.get(b);
    expect(s.get(b)).toBeUndefined(); // absolute limit despite activity
    const c = s.create('x', 'ops', 'stamp');
    s.delete(c);
    expect(s.get(c)).toBeUndefined();
    expect(s.get(undefined)).toBeUndefined();
    expect(s.get('')).toBeUndefined();
  });

  it('holds at most max sessions, dropping the least recently seen', () => {
    const s = new SessionStore({ max: 2 });
    const a = s.create('a', 'ops', 'stamp');
    const b = s.create('b', 'ops', 'stamp');
    s.get(a);
    const c = s.create('c', 'ops', 'stamp');
    expect(s.get(b)).toBeUndefined();
    expect(s.get(a)).toBeDefined();
    expect(s.get(c)).toBeDefined();
  });

  it('ends the sessions a revocation names, and says which', () => {
    const s = new SessionStore();
    const a1 = s.create('a', 'ops', 'old');
    const a2 = s.create('a', 'ops', 'new');
    const b = s.create('b', 'ops', 'old');
    expect(s.deleteWhere((x) => x.user === 'a' && x.stamp === 'old')).toEqual([a1]);
    expect(s.get(a1)).toBeUndefined();
    expect(s.get(a2)?.stamp).toBe('new');
    expect(s.get(b)).toBeDefined();
  });
});
