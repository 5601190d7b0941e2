import { describe, expect, it } from 'vitest';
import { openWithPassphrase, sealWithPassphrase } from './passphraseSeal';
import { appErrorOf } from '../../../testing/appErrorOf';

describe('passphrase seal', () => {
  it('opens with the passphrase it was sealed with, and never holds the plain text', () => {
    const block = sealWithPassphrase('{"password":"hunter2-redis"}', 'correct horse battery');
    expect(JSON.stringify(block)).not.toContain('hunter2');
    expect(openWithPassphrase(block, 'correct horse battery')).toBe('{"password":"hunter2-redis"}');
  });

  it('uses a fresh salt and IV each time, so two exports of the same secrets differ', () => {
    const a = sealWithPassphrase('same', 'passphrase-1');
    const b = sealWithPassphrase('same', 'passphrase-1');
    expect(a.salt).not.toBe(b.salt);
    expect(a.iv).not.toBe(b.iv);
    expect(a.data).not.toBe(b.data);
  });

  it('refuses a wrong passphrase on the passphrase field', () => {
    const block = sealWithPassphrase('secret', 'right passphrase');
    const e = appErrorOf(() => openWithPassphrase(block, 'wrong passphrase'));
    expect(e?.code).toBe('VALIDATION');
    expect(e?.field).toBe('passphrase');
    expect(e?.message).toMatch(/Wrong passphrase/);
  });

  it('refuses a block whose ciphertext was altered, even with the right passphrase', () => {
    const block = sealWithPassphrase('secret-value', 'right passphrase');
    const data = Buffer.from(block.data, 'base64');
    data[0] = (data[0] ?? 0) ^ 1;
    expect(appErrorOf(() => openWithPassphrase({ ...block, data: data.toString('base64') }, 'right passphrase'))?.field).toBe('passphrase');
  });

  it('refuses a passphrase shorter than 8 characters', () => {
    expect(appErrorOf(() => sealWithPassphrase('x', 'short'))?.field).toBe('passphrase');
  });
});
