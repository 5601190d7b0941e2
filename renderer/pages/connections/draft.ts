import type { ProfileDraft, ProfileView } from '../../../app/schemas/connections';
import { numberInput } from '../../lib/formInput';
import { EMPTY_SSH, sshDraftOf, sshFormFromView, type SshFormValues } from './sshDraft';

export type TopologyChoice = 'standalone' | 'cluster' | 'sentinel';
/** How analysts reach the profile (app/schemas/connections.ts AnalystAccessDraft). */
export type AnalystChoice = 'user' | 'shared' | 'none';

/** The form as typed: every text input is a string until it is sent. */
export interface FormValues extends SshFormValues {
  name: string;
  topology: TopologyChoice;
  /** Cluster: more seed nodes, "host:port" separated by commas, spaces or lines. */
  seeds: string;
  /** Sentinel: the sentinels, "host:port" separated by commas, spaces or lines. */
  sentinels: string;
  masterName: string;
  sentinelUsername: string;
  sentinelPassword: string;
  url: string;
  host: string;
  port: string;
  db: string;
  username: string;
  password: string;
  clearPassword: boolean;
  tlsEnabled: boolean;
  caFile: string;
  servername: string;
  verifyCert: boolean;
  analystAccess: AnalystChoice;
  analystUsername: string;
  /** Write-only like the others: empty on an edit keeps the stored one. */
  analystPassword: string;
  /** Tags or folder paths, separated by commas. */
  tags: string;
}

export const EMPTY_FORM: FormValues = {
  name: '',
  topology: 'standalone',
  seeds: '',
  sentinels: '',
  masterName: '',
  sentinelUsername: '',
  sentinelPassword: '',
  url: '',
  host: '',
  port: '',
  db: '',
  username: '',
  password: '',
  clearPassword: false,
  tlsEnabled: false,
  caFile: '',
  servername: '',
  verifyCert: true,
  analystAccess: 'shared',
  analystUsername: '',
  analystPassword: '',
  tags: '',
  ...EMPTY_SSH,
};

/**
 * Editing starts from the saved profile; passwords are write-only and start
 * empty. A cluster's or sentinel profile's host:port is its first seed or
 * sentinel, so the lists hold the others.
 */
export function formFromProfile(p: ProfileView): FormValues {
  const t = p.topology;
  const others = (list: string[]) => list.slice(1).join(', ');
  return {
    ...EMPTY_FORM,
    name: p.name,
    host: p.host,
    port: String(p.port),
    db: String(p.db),
    username: p.username ?? '',
    tlsEnabled: p.tls.enabled,
    caFile: p.tls.caFile ?? '',
    servername: p.tls.servername ?? '',
    verifyCert: p.tls.rejectUnauthorized,
    topology: t?.kind ?? 'standalone',
    seeds: t?.kind === 'cluster' ? others(t.seeds) : '',
    sentinels: t?.kind === 'sentinel' ? others(t.sentinels) : '',
    masterName: t?.kind === 'sentinel' ? t.masterName : '',
    sentinelUsername: t?.kind === 'sentinel' ? (t.sentinelUsername ?? '') : '',
    analystAccess: p.analystAccess === 'own' ? 'user' : p.analystAccess,
    analystUsername: p.analystUsername ?? '',
    tags: (p.tags ?? []).join(', '),
    ...sshFormFromView(p),
  };
}

/** "prod, team/eu" -> ["prod", "team/eu"]: a tag may hold spaces, never a comma. */
export function tagList(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** "a:1, b:2\nc:3" -> ["a:1", "b:2", "c:3"]: an address holds no comma or space. */
export function addressList(text: string): string[] {
  return text.split(/[\s,]+/).filter((s) => s !== '');
}

function topologyDraft(v: FormValues): ProfileDraft['topology'] {
  if (v.topology === 'cluster') return { kind: 'cluster', seeds: addressList(v.seeds) };
  if (v.topology !== 'sentinel') return undefined;
  return {
    kind: 'sentinel',
    sentinels: addressList(v.sentinels),
    masterName: v.masterName.trim(),
    ...(v.sentinelUsername === '' ? {} : { sentinelUsername: v.sentinelUsername }),
    ...(v.sentinelPassword === '' || v.clearPassword ? {} : { sentinelPassword: v.sentinelPassword }),
  };
}

/** The draft `connections.add|update|test` take. Empty inputs are left out, not sent as "". */
export function toDraft(v: FormValues): ProfileDraft {
  const d: ProfileDraft = { name: v.name };
  const url = v.url.trim();
  if (url !== '') d.url = url;
  const host = v.host.trim();
  if (host !== '') d.host = host;
  const port = numberInput(v.port);
  if (port !== undefined) d.port = port;
  const db = numberInput(v.db);
  if (db !== undefined) d.db = db;
  if (v.username !== '') d.username = v.username;
  if (v.password !== '' && !v.clearPassword) d.password = v.password;
  d.tls = { enabled: v.tlsEnabled, rejectUnauthorized: v.verifyCert };
  if (v.caFile.trim() !== '') d.tls.caFile = v.caFile.trim();
  if (v.servername.trim() !== '') d.tls.servername = v.servername.trim();
  const topology = topologyDraft(v);
  if (topology !== undefined) d.topology = topology;
  d.analyst = analystDraft(v);
  const ssh = sshDraftOf(v, v.clearPassword);
  if (ssh !== undefined) d.ssh = ssh;
  // Always sent, empty too: the form shows every tag, so clearing the field removes them.
  d.tags = tagList(v.tags);
  return d;
}

function analystDraft(v: FormValues): NonNullable<ProfileDraft['analyst']> {
  if (v.analystAccess !== 'user') return { access: v.analystAccess };
  return { access: 'user', username: v.analystUsername, ...(v.analystPassword === '' || v.clearPassword ? {} : { password: v.analystPassword }) };
}

/** Fields the form has an input for, as the contract names them (dotted paths). */
export const FORM_FIELDS = [
  'name',
  'url',
  'host',
  'port',
  'db',
  'username',
  'password',
  'tls.enabled',
  'tls.caFile',
  'tls.servername',
  'tls.rejectUnauthorized',
  'topology.seeds',
  'topology.sentinels',
  'topology.masterName',
  'topology.sentinelUsername',
  'topology.sentinelPassword',
  'analyst.username',
  'analyst.password',
  'ssh.host',
  'ssh.port',
  'ssh.user',
  'ssh.auth.keyFile',
  'ssh.auth.passphrase',
  'ssh.auth.password',
  'ssh.jumps',
  'ssh.knownHostsFile',
  'ssh.pinned',
  'tags',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/**
 * The form field an error points at. `connections.update` nests the draft under
 * `profile`, and `connections.test` under `draft`, so those prefixes are dropped;
 * one address of a list (`topology.seeds.2`) belongs to the list's input.
 */
export function formFieldOf(field: string | undefined): FormField | undefined {
  if (field === undefined) return undefined;
  const f = field
    .replace(/^(profile|draft)\./, '')
    .replace(/^(topology\.(?:seeds|sentinels))\.\d+$/, '$1')
    // One jump host's field belongs to the jumps' input; a pin to the fingerprint's.
    .replace(/^ssh\.jumps\..*$/, 'ssh.jumps')
    .replace(/^ssh\.pinned\..*$/, 'ssh.pinned')
    .replace(/^tags\.\d+$/, 'tags');
  return (FORM_FIELDS as readonly string[]).includes(f) ? (f as FormField) : undefined;
}
