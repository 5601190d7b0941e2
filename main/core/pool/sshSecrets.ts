import { mapSecrets, secretOf, sshAuths, type SshSpec } from '../../../app/schemas/sshProfile';
import type { SshRecord } from './profilesFile';

/**
 * The SSH route as profiles.json holds it: secrets sealed apart, by hop. A hop whose secret
 * was not typed keeps the stored one when `kept` (the record it had) is given and the hop
 * still logs in the same way; the caller passes `kept` only when the profile still goes
 * where it did (sameDestination), so a secret never follows an edit to another server.
 */
export function sealSsh(ssh: SshSpec, seal: (plain: string, field: string) => string, kept?: SshRecord): SshRecord {
  const keptAuths = kept === undefined ? [] : sshAuths(kept.route);
  const last = sshAuths(ssh).length - 1;
  const sealed = sshAuths(ssh).map((a, i): string | null => {
    const typed = secretOf(a);
    if (typed !== undefined) return seal(typed, `ssh.${fieldOf(i, last, a?.kind)}`);
    const before = kept?.sealed?.[i];
    return before !== undefined && before !== null && keptAuths[i]?.kind === a?.kind ? before : null;
  });
  const route = mapSecrets(ssh, () => undefined);
  return sealed.some((s) => s !== null) ? { route, sealed } : { route };
}

/** The route with its secrets opened; `open` returns undefined for one it cannot open (then left out). */
export function openSsh(rec: SshRecord, open: (sealed: string) => string | undefined): SshSpec {
  return mapSecrets(rec.route, (i) => {
    const s = rec.sealed?.[i];
    return s === undefined || s === null ? undefined : open(s);
  });
}

/** Whether hop `i` has a sealed secret, for the view's hasPassphrase / hasPassword. */
export function sshSecretStored(rec: SshRecord | undefined): (hop: number) => boolean {
  return (i) => typeof rec?.sealed?.[i] === 'string';
}

/** The form field a hop's secret came from, for SECRETS_UNAVAILABLE errors. */
function fieldOf(i: number, last: number, kind: string | undefined): string {
  const secret = kind === 'key' ? 'passphrase' : 'password';
  return i === last ? `auth.${secret}` : `jumps.${i}.auth.${secret}`;
}
