import { AppError } from '../../../app/errors';
import type { SshHostKey } from '../../../app/schemas/sshProfile';
import { HostKeyError } from './ssh';

/** The host key an SSH server presented and why it was refused, for the page to show (and pin). */
export function hostKeyOf(err: unknown): SshHostKey | undefined {
  if (!(err instanceof HostKeyError)) return undefined;
  return {
    host: err.host,
    port: err.port,
    fingerprint: err.presented,
    reason: err.reason,
    ...(err.expected === undefined ? {} : { expected: err.expected }),
  };
}

/**
 * An SSH failure as an AppError naming the SSH side: a refused host key or login is not the
 * Redis server's doing. ssh2 reports a failed login as "All configured authentication methods
 * failed"; its messages carry no secrets (ssh-core keeps them out).
 */
export function sshAppError(err: unknown): AppError | undefined {
  if (err instanceof HostKeyError)
    return new AppError('UNREACHABLE', `${err.message}. Connection refused: check the key with the server's administrator.`, 'ssh');
  const message = err instanceof Error ? err.message : String(err);
  if (/authentication (methods )?failed/i.test(message)) return new AppError('AUTH_FAILED', `SSH login refused: ${message}`, 'ssh.auth');
  if (/^SSH\b|ssh/i.test(message)) return new AppError('UNREACHABLE', message, 'ssh');
  return undefined;
}
