import type { SafeStorage } from 'electron';
import { AppError } from '../../app/errors';
import type { SecretBox } from '../core/pool/types';

type Storage = Pick<SafeStorage, 'isEncryptionAvailable' | 'getSelectedStorageBackend' | 'encryptString' | 'decryptString'>;

export const PLAIN_TEXT_REASON =
  'No OS keyring is available (Electron selected the "basic_text" store), so saved passwords would be ' +
  'stored in plain text and Cacheboard refuses to save them. Run a Secret Service keyring ' +
  '(gnome-keyring/libsecret, or KWallet) and start Cacheboard with --password-store=gnome-libsecret or ' +
  '--password-store=kwallet6, or use the web build, whose passwords come from environment secrets.';

export const UNAVAILABLE_REASON =
  'The operating system offers no encryption for saved passwords (Electron safeStorage is unavailable), so ' +
  'Cacheboard will not save them. Unlock or set up the OS keychain/keyring and restart Cacheboard, or use ' +
  'the web build, whose passwords come from environment secrets.';

/**
 * SecretBox over Electron safeStorage (Keychain, DPAPI, libsecret/KWallet).
 * Takes the safeStorage object as a parameter so it is testable without
 * Electron. Uses the synchronous API because SecretBox is synchronous; the
 * async variants only add lazy initialisation. Call only after app 'ready':
 * before it, Linux reports the backend as "unknown".
 */
export function createSafeStorageBox(storage: Storage, platform: NodeJS.Platform = process.platform): SecretBox {
  const availability = (): { available: boolean; reason?: string } => {
    if (!storage.isEncryptionAvailable()) return { available: false, reason: UNAVAILABLE_REASON };
    // On Linux without a keyring, safeStorage "encrypts" with a hard-coded key: that is plain text.
    if (platform === 'linux' && storage.getSelectedStorageBackend() === 'basic_text') {
      return { available: false, reason: PLAIN_TEXT_REASON };
    }
    return { available: true };
  };

  const ensureAvailable = (): void => {
    const a = availability();
    if (!a.available) throw new AppError('SECRETS_UNAVAILABLE', a.reason ?? UNAVAILABLE_REASON);
  };

  return {
    availability,
    seal(plain) {
      ensureAvailable();
      return storage.encryptString(plain).toString('base64');
    },
    open(sealed) {
      ensureAvailable();
      try {
        return storage.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        // The message never includes the sealed value.
        throw new AppError('SECRETS_UNAVAILABLE', 'A saved password could not be decrypted (the OS keyring or user account changed?). Enter it again.');
      }
    },
  };
}
