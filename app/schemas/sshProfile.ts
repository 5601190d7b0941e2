import * as z from 'zod';
import { Host, Port } from './common';

const Path = (field: string) => z.string().trim().min(1, `${field} must not be empty`).max(4096, `${field} is too long`);
const Secret = (field: string) => z.string().min(1, `${field} must not be empty`).max(4096, `${field} is too long`);
const User = z
  .string()
  .trim()
  .min(1, 'user must not be empty')
  .max(256, 'user is too long')
  .regex(/^[^\s@:]+$/, 'user may not hold spaces, @ or :');

/**
 * How one SSH server is logged in to. `key`: a private key file on the Node side (its
 * passphrase, if any, is a secret); `agent`: the SSH agent (SSH_AUTH_SOCK unless a socket is
 * given); `password`. Absent passphrase or password on an edit keeps the stored one, as the
 * Redis password does.
 */
export const SshAuth = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('key'), keyFile: Path('keyFile'), passphrase: Secret('passphrase').optional() }).strict(),
  z.object({ kind: z.literal('agent'), socket: Path('socket').optional() }).strict(),
  z.object({ kind: z.literal('password'), password: Secret('password').optional() }).strict(),
]);
export type SshAuth = z.output<typeof SshAuth>;

/** One SSH server on the way: port 22 and the auth ~/.ssh/config gives when left out. */
export const SshHopDraft = z.object({ host: Host, port: Port.optional(), user: User.optional(), auth: SshAuth.optional() }).strict();
export type SshHopDraft = z.output<typeof SshHopDraft>;

/** OpenSSH's SHA256 fingerprint form: "SHA256:" and 43 unpadded base64 characters. */
const Fingerprint = z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'a fingerprint is "SHA256:" and 43 base64 characters, as ssh-keygen -l prints it');
const HostPortKey = z.string().regex(/^(\[[^\]]+\]|[A-Za-z0-9._-]+):\d{1,5}$/, 'a pinned key is named "host:port"');

/**
 * A profile's way through SSH. The last SSH server is `host` (or the `configHost` alias of
 * ~/.ssh/config); `jumps` are passed first, in order (ProxyJump). The profile's Redis
 * addresses (host, seeds, sentinels, what a cluster or the sentinels announce) are as seen
 * from that last server.
 */
export const SshDraft = z
  .object({
    host: Host.optional(),
    port: Port.optional(),
    user: User.optional(),
    auth: SshAuth.optional(),
    /** A Host alias of the ssh config file: HostName, User, Port, IdentityFile and ProxyJump come from it. */
    configHost: z
      .string()
      .trim()
      .min(1, 'configHost must not be empty')
      .max(253, 'configHost is too long')
      .regex(/^[^\s@]+$/, 'configHost is a Host name from the ssh config, without spaces or @')
      .optional(),
    /** Jump hosts before the last server, in order; with configHost, they replace its ProxyJump. */
    jumps: z.array(SshHopDraft).max(8, 'at most 8 jump hosts').optional(),
    /** The ssh config file read for configHost and defaults (default ~/.ssh/config). */
    configFile: Path('configFile').optional(),
    /** Host keys are checked against this file (default ~/.ssh/known_hosts), unless pinned. */
    knownHostsFile: Path('knownHostsFile').optional(),
    /** "host:port" -> fingerprint accepted by an ops user (the web build): then known_hosts is not read. */
    pinned: z.record(HostPortKey, Fingerprint).optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    if (d.host === undefined && d.configHost === undefined) {
      ctx.addIssue({ code: 'custom', path: ['host'], message: 'ssh.host is required (or a configHost from ~/.ssh/config)' });
    }
    if (d.host !== undefined && d.configHost !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['configHost'], message: 'give ssh.host or ssh.configHost, not both' });
    }
  });
export type SshDraft = z.input<typeof SshDraft>;
/** As the Node side holds it, secrets included. */
export type SshSpec = z.output<typeof SshDraft>;

/** A host key an SSH server presented that was refused: the web build shows it for an ops user to pin. */
export const SshHostKey = z.object({
  host: z.string(),
  port: z.number(),
  /** "SHA256:…" as ssh-keygen -l prints it. */
  fingerprint: z.string(),
  reason: z.enum(['unknown', 'changed', 'revoked']),
  /** A changed key: the one known_hosts or the pin expected. */
  expected: z.string().optional(),
});
export type SshHostKey = z.output<typeof SshHostKey>;

/** What leaves the Node side of a hop's auth: whether a secret is stored, never the secret. */
const SshAuthView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('key'), keyFile: z.string(), hasPassphrase: z.boolean() }),
  z.object({ kind: z.literal('agent'), socket: z.string().optional() }),
  z.object({ kind: z.literal('password'), hasPassword: z.boolean() }),
]);
const SshHopView = z.object({ host: z.string(), port: z.number().optional(), user: z.string().optional(), auth: SshAuthView.optional() });

export const SshView = z.object({
  host: z.string().optional(),
  port: z.number().optional(),
  user: z.string().optional(),
  auth: SshAuthView.optional(),
  configHost: z.string().optional(),
  jumps: z.array(SshHopView).optional(),
  configFile: z.string().optional(),
  knownHostsFile: z.string().optional(),
  pinned: z.record(z.string(), z.string()).optional(),
});
export type SshView = z.output<typeof SshView>;

type AuthView = z.output<typeof SshAuthView>;

function authView(a: SshAuth | undefined, stored: boolean): AuthView | undefined {
  if (a === undefined) return undefined;
  if (a.kind === 'key') return { kind: 'key', keyFile: a.keyFile, hasPassphrase: a.passphrase !== undefined || stored };
  if (a.kind === 'agent') return a.socket === undefined ? { kind: 'agent' } : { kind: 'agent', socket: a.socket };
  return { kind: 'password', hasPassword: a.password !== undefined || stored };
}

/**
 * The SSH settings as they leave the Node side: passphrases and passwords replaced by whether
 * one is set. `stored(i)` says a sealed secret exists for hop i (jumps first, the last server last).
 */
export function viewSsh(s: SshSpec, stored: (hop: number) => boolean = () => false): SshView {
  const jumps = s.jumps ?? [];
  const hop = (h: SshHopDraft, i: number) => {
    const auth = authView(h.auth, stored(i));
    return {
      host: h.host,
      ...(h.port === undefined ? {} : { port: h.port }),
      ...(h.user === undefined ? {} : { user: h.user }),
      ...(auth === undefined ? {} : { auth }),
    };
  };
  const auth = authView(s.auth, stored(jumps.length));
  return {
    ...(s.host === undefined ? {} : { host: s.host }),
    ...(s.port === undefined ? {} : { port: s.port }),
    ...(s.user === undefined ? {} : { user: s.user }),
    ...(auth === undefined ? {} : { auth }),
    ...(s.configHost === undefined ? {} : { configHost: s.configHost }),
    ...(s.jumps === undefined ? {} : { jumps: jumps.map(hop) }),
    ...(s.configFile === undefined ? {} : { configFile: s.configFile }),
    ...(s.knownHostsFile === undefined ? {} : { knownHostsFile: s.knownHostsFile }),
    ...(s.pinned === undefined ? {} : { pinned: { ...s.pinned } }),
  };
}

/** Every hop's auth, jumps first and the last server last: where the secrets sit. */
export function sshAuths(s: SshSpec): Array<SshAuth | undefined> {
  return [...(s.jumps ?? []).map((j) => j.auth), s.auth];
}

/** The secret of one auth (a key's passphrase or a password), if typed. */
export function secretOf(a: SshAuth | undefined): string | undefined {
  if (a?.kind === 'key') return a.passphrase;
  if (a?.kind === 'password') return a.password;
  return undefined;
}

/** The same auth with its secret set (or removed, with undefined). */
export function withSecret(a: SshAuth | undefined, secret: string | undefined): SshAuth | undefined {
  if (a?.kind === 'key') return { kind: 'key', keyFile: a.keyFile, ...(secret === undefined ? {} : { passphrase: secret }) };
  if (a?.kind === 'password') return { kind: 'password', ...(secret === undefined ? {} : { password: secret }) };
  return a;
}

/** `s` with each hop's secret replaced by `secret(i, auth)` (jumps first, the last server last). */
export function mapSecrets(s: SshSpec, secret: (hop: number, a: SshAuth | undefined) => string | undefined): SshSpec {
  const jumps = s.jumps?.map((j, i) => {
    const auth = withSecret(j.auth, secret(i, j.auth));
    const { auth: _a, ...rest } = j;
    return auth === undefined ? rest : { ...rest, auth };
  });
  const auth = withSecret(s.auth, secret(jumps?.length ?? 0, s.auth));
  const { auth: _a, jumps: _j, ...rest } = s;
  return { ...rest, ...(auth === undefined ? {} : { auth }), ...(jumps === undefined ? {} : { jumps }) };
}
