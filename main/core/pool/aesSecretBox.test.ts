import { describe, expect, it } from 'vitest';
import { AppError } from '../../../app/errors';
import { aesSecretBox } from './aesSecretBox';
import { noSecretBox } from './noSecretBox';

const key = 'k'.repeat(32);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not an AppError';
  }
  return undefined;
}

describe('aesSecretBox', () => {
  const box = aesSecretBox(key);

  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const sealed = box.seal('hunter2-ünïcode');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('hunter2');
    expect(box.open(sealed)).toBe('hunter2-ünïcode');
  });

  it('uses a fresh IV each time, so equal passwords do not look equal', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const [v, iv, tag, ct] = box.seal('secret-value').split(':') as [string, string, string, string];
    const flip = (b64: string): string => {
      const buf = Buffer.from(b64, 'base64');
      buf[0] = (buf[0] ?? 0) ^ 1;
      return buf.toString('base64');
    };
    expect(codeOf(() => box.open([v, iv, tag, flip(ct)].join(':')))).toBe('SECRETS_UNAVAILABLE');
    expect(codeOf(() => box.open([v, iv, flip(tag), ct].join(':')))).toBe('SECRETS_UNAVAILABLE');
    expect(codeOf(() => box.open([v, flip(iv), tag, ct].join(':')))).toBe('SECRETS_UNAVAILABLE');
    expect(codeOf(() => box.open(['v2', iv, tag, ct].join(':')))).toBe('SECRETS_UNAVAILABLE');
  });

  it('cannot open with another key', () => {
    const other = aesSecretBox('x'.repeat(32));
    expect(codeOf(() => other.open(box.seal('pw')))).toBe('SECRETS_UNAVAILABLE');
  });

  it('refuses a short key', () => {
    expect(codeOf(() => aesSecretBox('short'))).toBe('VALIDATION');
  });
});

describe('noSecretBox', () => {
  it('reports itself unavailable and refuses to seal, with the reason', () => {
    const box = noSecretBox('no keyring');
    expect(box.availability()).toEqual({ available: false, reason: 'no keyring' });
    expect(() => box.seal('pw')).toThrow('no keyring');
    expect(codeOf(() => box.seal('pw'))).toBe('SECRETS_UNAVAILABLE');
  });
});
