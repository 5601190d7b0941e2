import { describe, expect, it } from 'vitest';
import { isSecret, MASKED, scrub } from './configSecrets';

describe('secrets', () => {
  it('masks the named ones and any named for a pass, auth or secret', () => {
    for (const name of ['requirepass', 'masterauth', 'masteruser', 'tls-key-file-pass', 'tls-client-key-file-pass', 'search-api-secret', 'module-auth-token']) {
      expect(isSecret(name), name).toBe(true);
    }
    for (const name of ['maxmemory', 'save', 'aclfile', 'port']) expect(isSecret(name), name).toBe(false);
  });

  it('shows tls-auth-clients only while it holds one of its choices', () => {
    expect(isSecret('tls-auth-clients', ['yes', 'optional'])).toBe(false);
    expect(isSecret('tls-auth-clients', ['yes', 'hunter2'])).toBe(true);
  });

  it('scrubs every secret from a text, the longest first, and ignores empty ones', () => {
    expect(scrub('auth pw-long and pw', ['pw', 'pw-long', ''])).toBe(`auth ${MASKED} and ${MASKED}`);
    expect(scrub('nothing here', [''])).toBe('nothing here');
  });
});
