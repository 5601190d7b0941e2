import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './loginLimiter';
import { SessionStore } from './sessions';

describe('SessionStore', () => {
  it('gives opaque tokens and forgets them on logout, idle and absolute expiry', () => {
    let t = 0;
    const s = new SessionStore({ idleMs: 100, absoluteMs: 1000, now: () => t });
    const a = s.create('ana', 'analyst');
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(s.get(a)?.role).toBe('analyst');
    t = 90;
    expect(s.get(a)?.user).toBe('ana'); // activity refreshes the idle clock
    t = 180;
    expect(s.get(a)).toBeDefined();
    t = 290;
    expect(s.get(a)).toBeUndefined(); // idle 110 ms
    const b = s.create('ops', 'ops');
    for (t = 300; t <= 1400; t += 50) s.get(b);
    expect(s.get(b)).toBeUndefined(); // absolute limit despite activity
    const c = s.create('x', 'ops');
    s.delete(c);
    expect(s.get(c)).toBeUndefined();
    expect(s.get(undefined)).toBeUndefined();
    expect(s.get('')).toBeUndefined();
  });

  it('holds at most max sessions, dropping the least recently seen', () => {
    const s = new SessionStore({ max: 2 });
    const a = s.create('a', 'ops');
    const b = s.create('b', 'ops');
    s.get(a);
    const c = s.create('c', 'ops');
    expect(s.get(b)).toBeUndefined();
    expect(s.get(a)).toBeDefined();
    expect(s.get(c)).toBeDefined();
    s.deleteUser('a');
    expect(s.get(a)).toBeUndefined();
  });
});

describe('LoginLimiter', () => {
  it('lets a few failures through, then backs off exponentially per key, and a success clears it', () => {
    let t = 0;
    const l = new LoginLimiter({ freeFailures: 2, baseMs: 100, maxMs: 1000, now: () => t });
    const keys = ['user:ana', 'addr:1.2.3.4'];
    l.fail(keys);
    l.fail(keys);
    expect(l.retryAfter(keys)).toBe(0);
    l.fail(keys);
    expect(l.retryAfter(keys)).toBe(100);
    l.fail(keys);
    expect(l.retryAfter(keys)).toBe(200);
    for (let i = 0; i < 10; i++) l.fail(keys);
    expect(l.retryAfter(keys)).toBe(1000);
    expect(l.retryAfter(['user:ana'])).toBe(1000);
    expect(l.retryAfter(['user:other'])).toBe(0);
    t = 1000;
    expect(l.retryAfter(keys)).toBe(0);
    l.succeed(keys);
    l.fail(keys);
    expect(l.retryAfter(keys)).toBe(0);
  });
});
