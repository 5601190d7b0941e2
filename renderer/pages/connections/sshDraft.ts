import { parseHostPort } from '../../../app/hostPort';
import type { ProfileDraft, ProfileView } from '../../../app/schemas/connections';
import type { SshAuth, SshHopDraft } from '../../../app/schemas/sshProfile';
import { numberInput } from '../../lib/formInput';

export type SshAuthChoice = 'key' | 'agent' | 'password';

/** The SSH section as typed. The passphrase or password is write-only: empty on an edit keeps the stored one. */
export interface SshFormValues {
  sshEnabled: boolean;
  /** The last SSH server, or a Host name of the ssh config. */
  sshHost: string;
  sshPort: string;
  sshUser: string;
  sshAuth: SshAuthChoice;
  sshKeyFile: string;
  sshSecret: string;
  /** Jump hosts before it, "[user@]host[:port]" separated by commas, spaces or lines. */
  sshJumps: string;
  sshKnownHosts: string;
  /** The SHA256 fingerprint in the pin field (web build): the last SSH server's, or the one last accepted. */
  sshPinned: string;
  /**
   * The "host:port" the field's pin is stored under: set by Accept and pin to the address the
   * server reported (a Host alias's HostName and Port, or a jump host); empty: the typed host and port.
   */
  sshPinnedAt: string;
  /** Every other pin (earlier accepted jump hosts, a saved profile's pins not shown in the field), kept as they are. */
  sshPins: Readonly<Record<string, string>>;
}

export const EMPTY_SSH: SshFormValues = {
  sshEnabled: false,
  sshHost: '',
  sshPort: '',
  sshUser: '',
  sshAuth: 'agent',
  sshKeyFile: '',
  sshSecret: '',
  sshJumps: '',
  sshKnownHosts: '',
  sshPinned: '',
  sshPinnedAt: '',
  sshPins: {},
};

function hopText(h: { host: string; port?: number | undefined; user?: string | undefined }): string {
  const host = h.host.includes(':') ? `[${h.host}]` : h.host;
  return `${h.user === undefined ? '' : `${h.user}@`}${host}${h.port === undefined ? '' : `:${h.port}`}`;
}

/** "host:port" a pin is named by: the port ssh would use (22 when none is given). */
export function pinKey(v: SshFormValues): string {
  const host = v.sshHost.trim();
  return `${host.includes(':') ? `[${host}]` : host}:${numberInput(v.sshPort) ?? 22}`;
}

export function sshFormFromView(p: ProfileView): SshFormValues {
  const s = p.ssh;
  if (s === undefined) return EMPTY_SSH;
  const host = s.host ?? s.configHost ?? '';
  const port = s.port === undefined ? '' : String(s.port);
  const own = `${host.includes(':') ? `[${host}]` : host}:${s.port ?? 22}`;
  return {
    sshEnabled: true,
    sshHost: host,
    sshPort: port,
    sshUser: s.user ?? '',
    sshAuth: s.auth?.kind ?? 'agent',
    sshKeyFile: s.auth?.kind === 'key' ? s.auth.keyFile : '',
    sshSecret: '',
    sshJumps: (s.jumps ?? []).map(hopText).join(', '),
    sshKnownHosts: s.knownHostsFile ?? '',
    sshPinned: s.pinned?.[own] ?? '',
    sshPinnedAt: '',
    sshPins: Object.fromEntries(Object.entries(s.pinned ?? {}).filter(([at]) => at !== own)),
  };
}

/**
 * Accept and pin: `fingerprint` into the field, stored under the address the server reported
 * (`host`, `port`), which is where the check looks (a Host alias is pinned under its HostName
 * and Port). A pin already in the field for another address (a jump host accepted first) is kept.
 */
export function acceptPin(v: SshFormValues, host: string, port: number, fingerprint: string): Pick<SshFormValues, 'sshPinned' | 'sshPinnedAt' | 'sshPins'> {
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const previous = v.sshPinned.trim();
  const previousAt = v.sshPinnedAt === '' ? pinKey(v) : v.sshPinnedAt;
  const { [at]: _replaced, ...pins } = v.sshPins;
  return { sshPinned: fingerprint, sshPinnedAt: at, sshPins: previous === '' || previousAt === at ? pins : { ...pins, [previousAt]: previous } };
}

/** "[user@]host[:port]" as typed; what cannot be read goes to the schema as typed, which names the problem. */
function hopOf(raw: string): SshHopDraft {
  const at = raw.indexOf('@');
  const user = at === -1 ? undefined : raw.slice(0, at);
  const a = parseHostPort(at === -1 ? raw : raw.slice(at + 1), 22);
  const hasPort = /:\d+$/.test(raw) && !/^[^[]*:.*:/.test(raw);
  if ('error' in a) return { host: raw };
  return { host: a.host, ...(hasPort ? { port: a.port } : {}), ...(user === undefined ? {} : { user }) };
}

function authOf(v: SshFormValues, clear: boolean): SshAuth {
  const secret = v.sshSecret === '' || clear ? undefined : v.sshSecret;
  if (v.sshAuth === 'key') return { kind: 'key', keyFile: v.sshKeyFile.trim(), ...(secret === undefined ? {} : { passphrase: secret }) };
  if (v.sshAuth === 'password') return { kind: 'password', ...(secret === undefined ? {} : { password: secret }) };
  return { kind: 'agent' };
}

/** The draft's ssh field, or undefined with SSH off. A host without dots or colons may be a Host alias: the server resolves both alike. */
export function sshDraftOf(v: SshFormValues, clearSecrets: boolean): ProfileDraft['ssh'] {
  if (!v.sshEnabled) return undefined;
  const port = numberInput(v.sshPort);
  const jumps = v.sshJumps
    .split(/[\s,]+/)
    .filter((s) => s !== '')
    .map(hopOf);
  const field = v.sshPinned.trim();
  const pinned = { ...v.sshPins, ...(field === '' ? {} : { [v.sshPinnedAt === '' ? pinKey(v) : v.sshPinnedAt]: field }) };
  return {
    host: v.sshHost.trim(),
    ...(port === undefined ? {} : { port }),
    ...(v.sshUser.trim() === '' ? {} : { user: v.sshUser.trim() }),
    auth: authOf(v, clearSecrets),
    ...(jumps.length === 0 ? {} : { jumps }),
    ...(v.sshKnownHosts.trim() === '' ? {} : { knownHostsFile: v.sshKnownHosts.trim() }),
    ...(Object.keys(pinned).length === 0 ? {} : { pinned }),
  };
}
