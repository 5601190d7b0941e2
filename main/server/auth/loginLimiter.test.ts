import { describe, expect, it } from 'vitest';
import { addressKey, LoginLimiter } from './loginLimiter';

/** What the sign-in route does with one attempt: admit, hash (counted here), settle. */
async function attempt(l: LoginLimiter, user: string, ip: string, right: boolean, hashes: { n: number }): Promise<string> {
  const a = l.begin(user, ip);
  if (!a.ok) return a.reason;
  hashes.n++;
  await new Promise((r) => setTimeout(r, 2)); // the scrypt
  a.settle(right);
  return right ? 'signed in' : 'wrong';
}

/** Attempts that fail at once (no await): each is counted when admitted. */
function fail(l: LoginLimiter, user: string, ip: string, times = 1): void {
  for (let i = 0; i < times; i++) {
    const a = l.begin(user, ip);
    if (a.ok) a.settle(false);
  }
}

const waitOf = (l: LoginLimiter, user: string, ip: string) => {
  const a = l.begin(user, ip);
  if (a.ok) {
    a.settle(true);
    return 0;
  }
  return a.retryAfterMs;
};

describe('LoginLimiter', () => {
  it('lets a few attempts through per (user, address), then backs off exponentially; a success clears it', () => {
    let t = 0;
    const l = new LoginLimiter({ pair: { free: 2, baseMs: 100, maxMs: 1000 }, now: () => t });
    fail(l, 'ana', '1.2.3.4', 3);
    const locked = l.begin('ana', '1.2.3.4');
    expect(locked).toEqual({ ok: false, retryAfterMs: 100, reason: 'backoff' });
    t = 100;
    fail(l, 'ana', '1.2.3.4');
    expect(l.begin('ana', '1.2.3.4')).toMatchObject({ retryAfterMs: 200 });
    for (let i = 0; i < 10; i++) {
      t += 1000;
      fail(l, 'ana', '1.2.3.4');
    }
    expect(l.begin('ana', '1.2.3.4')).toMatchObject({ retryAfterMs: 1000 });
    t += 1000;
    expect(waitOf(l, 'ana', '1.2.3.4')).toBe(0); // admitted, and signed in: cleared
    fail(l, 'ana', '1.2.3.4', 2);
    expect(waitOf(l, 'ana', '1.2.3.4')).toBe(0);
  });

  it("one user's guesses lock neither another user at that address nor that user elsewhere", () => {
    const l = new LoginLimiter({ pair: { free: 2, baseMs: 60_000 }, now: () => 0 });
    fail(l, 'olga', '10.0.0.1', 20);
    expect(l.begin('olga', '10.0.0.1')).toMatchObject({ ok: false, reason: 'backoff' });
    expect(waitOf(l, 'ana', '10.0.0.1')).toBe(0);
    expect(waitOf(l, 'olga', '10.0.0.2')).toBe(0);
  });

  it('caps one address trying many names, and forgets it after a quiet while', () => {
    let t = 0;
    const l = new LoginLimiter({ address: { free: 3, baseMs: 60_000, forgetMs: 3_600_000 }, now: () => t });
    for (const name of ['u1', 'u2', 'u3', 'u4']) fail(l, name, '10.0.0.1');
    expect(l.begin('u5', '10.0.0.1')).toMatchObject({ ok: false, reason: 'backoff', retryAfterMs: 60_000 });
    expect(waitOf(l, 'u5', '10.0.0.2')).toBe(0);
    t = 3_600_001;
    expect(waitOf(l, 'u5', '10.0.0.1')).toBe(0);
  });

  it("a success takes back only its own attempt at the address: one account's password does not reset the count", () => {
    const l = new LoginLimiter({ address: { free: 3, baseMs: 60_000 }, now: () => 0 });
    fail(l, 'u1', '10.0.0.1');
    fail(l, 'u2', '10.0.0.1');
    fail(l, 'u3', '10.0.0.1');
    expect(waitOf(l, 'mine', '10.0.0.1')).toBe(0); // the 4th, signed in: taken back
    fail(l, 'u4', '10.0.0.1'); // the 4th again
    expect(l.begin('u5', '10.0.0.1')).toMatchObject({ ok: false, reason: 'backoff' });
  });

  it('200 parallel guesses and then the right password: a few hashes at most, and the right one is refused', async () => {
    const l = new LoginLimiter({ pair: { free: 5, baseMs: 60_000 }, now: () => 0 });
    const hashes = { n: 0 };
    for (let wave = 0; wave < 5; wave++) {
      const results = await Promise.all(Array.from({ length: 200 }, () => attempt(l, 'olga', '10.0.0.1', false, hashes)));
      expect(results.filter((r) => r === 'wrong').length).toBeLessThanOrEqual(2); // two at once per user name
    }
    expect(hashes.n).toBe(6); // five free attempts and the one that started the backoff
    expect(await attempt(l, 'olga', '10.0.0.1', true, hashes)).toBe('backoff');
    expect(hashes.n).toBe(6);
  });

  it('bounds attempts in flight per user name (from any address) and per address (for any name)', () => {
    const l = new LoginLimiter({ busyPerUser: 2, busyPerAddress: 3, now: () => 0 });
    const a = l.begin('olga', '10.0.0.1');
    const b = l.begin('olga', '10.0.0.2');
    expect(l.begin('olga', '10.0.0.3')).toEqual({ ok: false, retryAfterMs: 1000, reason: 'busy' });
    expect(l.begin('ana', '10.0.0.1').ok).toBe(true);
    expect(l.begin('bob', '10.0.0.1').ok).toBe(true);
    expect(l.begin('carl', '10.0.0.1')).toMatchObject({ ok: false, reason: 'busy' });
    if (a.ok) a.settle(false);
    if (b.ok) {
      b.settle(false);
      b.settle(false); // settling twice frees one slot only
    }
    expect(l.begin('olga', '10.0.0.3').ok).toBe(true);
  });

  it('names that cannot be users share one key, so junk names do not each get free attempts', () => {
    const l = new LoginLimiter({ pair: { free: 2, baseMs: 60_000 }, now: () => 0 });
    fail(l, 'no such user!', '10.0.0.1');
    fail(l, 'x'.repeat(10_000), '10.0.0.1');
    fail(l, '', '10.0.0.1');
    expect(l.begin('other junk?', '10.0.0.1')).toMatchObject({ ok: false, reason: 'backoff' });
  });
});

describe('addressKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1%eth0', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:1.2.3.4:5', '::ffff:1.2.3.4:5'],
  ])('counts %s as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
