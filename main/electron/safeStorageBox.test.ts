import type { SafeStorage } from 'electron';
import { describe, expect, it } from 'vitest';
import { createSafeStorageBox, PLAIN_TEXT_REASON } from './safeStorageBox';
import { appErrorOf } from '../../testing/appErrorOf';

type Backend = ReturnType<SafeStorage['getSelectedStorageBackend']>;

/** Stands in for Electron's safeStorage: a reversible "encryption" that is visibly not the input. */
function fakeStorage(opts: { available?: boolean; backend?: Backend } = {}) {
  return {
    isEncryptionAvailable: () => opts.available ?? true,
    getSelectedStorageBackend: (): Backend => opts.backend ?? 'gnome_libsecret',
    encryptString: (plain: string) => Buffer.from(`enc:${plain}`, 'utf8').reverse(),
    decryptString: (buf: Buffer) => {
      const text = Buffer.from(buf).reverse().toString('utf8');
      if (!text.startsWith('enc:')) throw new Error(`Error while decrypting the ciphertext ${text}`);
      return text.slice(4);
    },
  };
}

describe('createSafeStorageBox', () => {
  it('seals to base64 that is not the password and opens it back', () => {
    const box = createSafeStorageBox(fakeStorage(), 'linux');
    expect(box.availability()).toEqual({ available: true });
    const sealed = box.seal('s3cret pässword');
    expect(sealed).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('s3cret');
    expect(box.open(sealed)).toBe('s3cret pässword');
  });

  it("refuses Linux's basic_text store, saying passwords would be plain text and what to do", () => {
    const box = createSafeStorageBox(fakeStorage({ backend: 'basic_text' }), 'linux');
    const a = box.availability();
    expect(a.available).toBe(false);
    expect(a.reason).toBe(PLAIN_TEXT_REASON);
    expect(a.reason).toMatch(/plain text/);
    expect(a.reason).toMatch(/libsecret/);
    expect(a.reason).toMatch(/KWallet/);
    expect(a.reason).toMatch(/web build/);
    const err = appErrorOf(() => box.seal('pw'));
    expect(err.code).toBe('SECRETS_UNAVAILABLE');
    expect(err.message).toBe(PLAIN_TEXT_REASON);
  });

  it('only asks for the Linux backend on Linux', () => {
    const storage = {
      ...fakeStorage(),
      getSelectedStorageBackend: (): Backend => {
        throw new Error('linux only');
      },
    };
    expect(createSafeStorageBox(storage, 'darwin').availability()).toEqual({ available: true });
    expect(createSafeStorageBox(storage, 'win32').availability()).toEqual({ available: true });
  });

  it('is unavailable when the OS offers no encryption', () => {
    const box = createSafeStorageBox(fakeStorage({ available: false }), 'darwin');
    expect(box.availability().available).toBe(false);
    expect(box.availability().reason).toMatch(/keychain|keyring/i);
    expect(appErrorOf(() => box.seal('pw')).code).toBe('SECRETS_UNAVAILABLE');
    expect(appErrorOf(() => box.open('AAAA')).code).toBe('SECRETS_UNAVAILABLE');
  });

  it('reports an undecryptable value without echoing it', () => {
    const box = createSafeStorageBox(fakeStorage(), 'linux');
    const garbage = Buffer.from('not-sealed-by-us').toString('base64');
    const err = appErrorOf(() => box.open(garbage));
    expect(err.code).toBe('SECRETS_UNAVAILABLE');
    expect(err.message).not.toContain('not-sealed-by-us');
    expect(err.message).not.toContain(garbage);
  });
});
