import { describe, expect, it } from 'vitest';
import { hashPassword, unusablePassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const h = await hashPassword('correct horse');
    expect(h).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(h).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', h)).toBe(true);
    expect(await verifyPassword('correct horsE', h)).toBe(false);
    expect(await verifyPassword('', h)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it.each([[''], ['   '], ['\t\n'], [undefined], [null], [42], [['pw']], [{ toString: () => 'pw' }]])('refuses %j as a password', async (pw) => {
    expect(unusablePassword(pw)).toBeDefined();
    const h = await hashPassword('pw');
    expect(await verifyPassword(pw, h)).toBe(false);
  });

  it('a malformed stored hash never verifies', async () => {
    expect(await verifyPassword('pw', 'plain:pw')).toBe(false);
    expect(await verifyPassword('pw', '')).toBe(false);
    expect(await verifyPassword('pw', 'scrypt$abc$8$1$AAAA$AAAA')).toBe(false);
  });
});
