import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Role } from '../../../app/define';
import { AppError } from '../../../app/errors';
import { validateSpecFiles } from './connectionOptions';
import { readProfilesFile, writeProfilesFile, type AnalystRecord, type ProfileRecord, type SshRecord, type TopologyRecord } from './profilesFile';
import { openSsh, sealSsh, sshSecretStored } from './sshSecrets';
import { viewSsh } from '../../../app/schemas/sshProfile';
import { isReadOnlyData } from './readOnlyProfile';
import { analystIdOf, analystVariant, splitConnectionId, usesAnalystId } from './roleProfiles';
import { sameDestination, viewTopology } from './topology';
import { ProfileId } from '../../../app/schemas/common';
import type { ProfileSpec, ProfileView, SecretBox, StoredProfile } from './types';
import type { AnalystAccessDraft } from '../../../app/schemas/connections';

export interface ProfileStoreOptions {
  /** profiles.json lives here (created 0700 if missing). */
  dataDir: string;
  secretBox: SecretBox;
  /** Profiles from the config file, REDIS_URL or the embedded server: listed, their definitions never edited here (their data may be written: readOnlyProfile.ts). */
  definitionLocked?: StoredProfile[];
}

export interface UpdateOptions {
  /**
   * With no password (or sentinel password) in the spec: true removes the stored one, false keeps it
   * while the profile still points where it did (sameDestination); an edit of its host, port, TLS or
   * topology drops every stored secret not typed again.
   */
  clearPassword?: boolean;
}

/** The secrets a profile may hold, sealed, and how analysts reach it. */
interface Sealed {
  password?: string | undefined;
  sentinelPassword?: string | undefined;
  analyst?: AnalystRecord | undefined;
  ssh?: SshRecord | undefined;
}

/** How sessions of a role reach a profile: under which connection id, or refused (analysts on an ops-only profile). */
interface Reach {
  name: string;
  /** Analysts connect as their own Redis user, under the derived id. */
  own: boolean;
  /** Analysts may not use it. */
  refused: boolean;
}

/** Lowercase letters, digits and dashes from the name, so ids are readable in logs and URLs. */
function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s === '' ? 'profile' : s;
}

/**
 * The user's connection profiles in `<dataDir>/profiles.json` (0600, written
 * atomically), passwords sealed by the SecretBox, plus read-only profiles
 * injected by the shell. Reads the file once, at construction: a corrupt file
 * throws there, naming it, instead of being replaced by an empty one.
 */
export class ProfileStore {
  readonly file: string;
  private readonly box: SecretBox;
  private readonly definitionLocked: Map<string, StoredProfile>;
  private records: ProfileRecord[];

  constructor(opts: ProfileStoreOptions) {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    this.file = join(opts.dataDir, 'profiles.json');
    this.box = opts.secretBox;
    this.definitionLocked = new Map((opts.definitionLocked ?? []).map((p) => [p.id, p]));
    this.records = readProfilesFile(this.file);
  }

  list(): StoredProfile[] {
    const users = this.records.map((r) => this.toStored(r, false));
    return [...this.definitionLocked.values(), ...users];
  }

  /** Every profile and every analyst variant: the pool reports a state for each connection id. */
  connectable(): StoredProfile[] {
    const all = this.list();
    return [...all, ...all.flatMap((p) => analystVariant(p) ?? [])];
  }

  /**
   * By profile id or connection id (`forRole`). Throws SECRETS_UNAVAILABLE when a
   * stored password cannot be opened (e.g. the key changed).
   */
  get(id: string): StoredProfile | undefined {
    const of = splitConnectionId(id);
    if (of.analyst) {
      const base = this.get(of.id);
      return base === undefined ? undefined : analystVariant(base);
    }
    const fixed = this.definitionLocked.get(id);
    if (fixed !== undefined) return fixed;
    const rec = this.records.find((r) => r.id === id);
    return rec === undefined ? undefined : this.toStored(rec, true);
  }

  add(given: ProfileSpec): StoredProfile {
    const [added] = this.addAll([given]);
    if (added === undefined) throw new AppError('INTERNAL', 'The profile was not added.');
    return added;
  }

  /**
   * Add several profiles in one write (an import): every one is checked and sealed first, so
   * a bad one (a missing CA file, a password with nowhere safe to go) leaves the file untouched.
   */
  addAll(given: readonly ProfileSpec[]): StoredProfile[] {
    const taken = new Set<string>();
    const recs = given.map(({ analyst, ...spec }) => {
      validateSpecFiles(spec);
      const id = this.newId(spec.name, taken);
      taken.add(id);
      return this.toRecord(id, spec, {
        password: spec.password === undefined ? undefined : this.seal(spec.password),
        sentinelPassword: this.sealSentinelPassword(spec),
        analyst: this.analystRecord(analyst, undefined, false),
        ssh: spec.ssh === undefined ? undefined : sealSsh(spec.ssh, (p, f) => this.seal(p, f)),
      });
    });
    this.commit([...this.records, ...recs]);
    return recs.map((rec) => this.toStored(rec, true));
  }

  update(id: string, given: ProfileSpec, opts: UpdateOptions = {}): StoredProfile {
    const { analyst, ...spec } = given;
    const existing = this.userRecord(id);
    validateSpecFiles(spec);
    // A stored secret goes only where it was typed for: anyone able to edit a profile could
    // otherwise point it at their own host and read the password off the next connection.
    const keep = !opts.clearPassword && sameDestination(this.toStored(existing, false).spec, spec);
    let password: string | undefined;
    if (spec.password !== undefined) password = this.seal(spec.password);
    else if (keep) password = existing.passwordSealed;
    let sentinelPassword = this.sealSentinelPassword(spec);
    if (sentinelPassword === undefined && keep && existing.topology?.kind === 'sentinel') {
      sentinelPassword = existing.topology.sentinelPasswordSealed;
    }
    const ssh = spec.ssh === undefined ? undefined : sealSsh(spec.ssh, (p, f) => this.seal(p, f), keep ? existing.ssh : undefined);
    // Tags are not secrets: an update without them (an older client, the CLI) keeps the stored ones.
    const tagged = spec.tags === undefined && existing.tags !== undefined ? { ...spec, tags: existing.tags } : spec;
    const rec = this.toRecord(existing.id, tagged, { password, sentinelPassword, analyst: this.analystRecord(analyst, existing.analyst, keep), ssh });
    this.commit(this.records.map((r) => (r.id === id ? rec : r)));
    return this.toStored(rec, true);
  }

  remove(id: string): void {
    this.userRecord(id);
    this.commit(this.records.filter((r) => r.id !== id));
  }

  /**
   * The id whose connections a session of `role` uses: an analyst's, when the
   * profile carries analyst credentials, so the pool opens separate connections
   * as that Redis user; otherwise the profile's own.
   */
  forRole(id: ProfileId, role: Role): string {
    const reach = this.reachOf(id);
    if (reach === undefined) return id;
    if (this.refuses(id, role)) {
      throw new AppError('FORBIDDEN', `Profile "${reach.name}" is for ops only: analysts may not use it.`, 'profileId');
    }
    return role === 'analyst' && reach.own ? analystIdOf(id) : id;
  }

  /** Whether sessions of `role` may not use this profile at all (analysts, on an ops-only one). */
  refuses(id: string, role: Role): boolean {
    return role === 'analyst' && this.reachOf(id)?.refused === true;
  }

  /** The profile id a session of `role` knows a connection id by; undefined when it is another role's connection. */
  shownAs(connectionId: string, role: Role): ProfileId | undefined {
    const { id } = splitConnectionId(connectionId);
    const reach = this.reachOf(id);
    if (this.refuses(id, role)) return undefined;
    return (role === 'analyst' && reach?.own === true ? analystIdOf(id) : id) === connectionId ? id : undefined;
  }

  /** What leaves the Node side; an analyst sees the Redis user they connect as. */
  view(p: StoredProfile, role: Role = 'ops'): ProfileView {
    const rec = p.source === 'user' ? this.records.find((r) => r.id === p.id) : undefined;
    const variant = usesAnalystId(p, role) ? analystVariant(p) : undefined;
    const spec = variant?.spec ?? p.spec;
    const sealedAnalyst = rec?.analyst?.access === 'user' && rec.analyst.passwordSealed !== undefined;
    return {
      id: splitConnectionId(p.id).id,
      name: spec.name,
      host: spec.host,
      port: spec.port,
      db: spec.db,
      ...(spec.username === undefined ? {} : { username: spec.username }),
      // An analyst's view is of their own user: the ops password's seal says nothing of it.
      hasPassword: spec.password !== undefined || (variant === undefined ? rec?.passwordSealed !== undefined : sealedAnalyst),
      tls: { ...spec.tls },
      ...withTopology(spec, rec),
      source: p.source,
      analystAccess: p.analystsRefused === true ? 'none' : p.analyst !== undefined ? 'own' : 'shared',
      ...(p.analyst === undefined ? {} : { analystUsername: p.analyst.username }),
      hasAnalystPassword: p.analyst?.password !== undefined || sealedAnalyst,
      definitionLocked: p.source !== 'user' || this.definitionLocked.has(p.id),
      readOnlyData: isReadOnlyData(p),
      ...(spec.ssh === undefined ? {} : { ssh: viewSsh(spec.ssh, sshSecretStored(rec?.ssh)) }),
      ...(p.spec.tags === undefined || p.spec.tags.length === 0 ? {} : { tags: [...p.spec.tags] }),
    };
  }

  passwordStorage(): { available: boolean; reason?: string } {
    return this.box.availability();
  }

  private userRecord(id: string): ProfileRecord {
    const fixed = this.definitionLocked.get(id);
    if (fixed !== undefined) {
      const where = fixed.source === 'embedded' ? 'the embedded server' : 'the server configuration';
      throw new AppError('READ_ONLY', `Profile "${fixed.spec.name}" comes from ${where} and cannot be changed here.`);
    }
    const rec = this.records.find((r) => r.id === id);
    if (rec === undefined) throw new AppError('NOT_FOUND', `No connection profile with id "${id}".`);
    return rec;
  }

  /** How analysts reach the profile as seen by forRole, without opening any secret. */
  private reachOf(id: string): Reach | undefined {
    const fixed = this.definitionLocked.get(id);
    if (fixed !== undefined) return { name: fixed.spec.name, own: fixed.analyst !== undefined, refused: fixed.analystsRefused === true };
    const rec = this.records.find((r) => r.id === id);
    return rec === undefined ? undefined : { name: rec.name, own: rec.analyst?.access === 'user', refused: rec.analyst?.access === 'none' };
  }

  /**
   * The analysts' access to store. Absent from the draft: what was stored stays (its password
   * only while `keepSecret`, as for the profile's own). A user without a password typed keeps
   * the stored one on the same terms.
   */
  private analystRecord(draft: AnalystAccessDraft | undefined, stored: AnalystRecord | undefined, keepSecret: boolean): AnalystRecord | undefined {
    const storedPassword = keepSecret && stored?.access === 'user' ? stored.passwordSealed : undefined;
    if (draft === undefined) {
      if (stored?.access !== 'user') return stored;
      return { access: 'user', username: stored.username, ...(storedPassword === undefined ? {} : { passwordSealed: storedPassword }) };
    }
    if (draft.access === 'shared') return undefined;
    if (draft.access === 'none') return { access: 'none' };
    const sealed = draft.password === undefined ? storedPassword : this.seal(draft.password, 'analyst.password');
    return { access: 'user', username: draft.username, ...(sealed === undefined ? {} : { passwordSealed: sealed }) };
  }

  private sealSentinelPassword(spec: ProfileSpec): string | undefined {
    const t = spec.topology;
    return t?.kind === 'sentinel' && t.sentinelPassword !== undefined ? this.seal(t.sentinelPassword, 'topology.sentinelPassword') : undefined;
  }

  private seal(password: string, field = 'password'): string {
    const a = this.box.availability();
    if (!a.available) {
      throw new AppError(
        'SECRETS_UNAVAILABLE',
        `${a.reason ?? 'No safe place to store passwords.'} Save the profile without a password, or make secure storage available first.`,
        field,
      );
    }
    return this.box.seal(password);
  }

  /** Persist first, then swap in memory: a failed write leaves both as they were. */
  private commit(next: ProfileRecord[]): void {
    writeProfilesFile(this.file, next);
    this.records = next;
  }

  private newId(name: string, pending: ReadonlySet<string> = new Set()): ProfileId {
    const taken = (id: string): boolean => pending.has(id) || this.definitionLocked.has(id) || this.records.some((r) => r.id === id);
    for (;;) {
      const id = ProfileId.parse(`${slug(name)}-${randomBytes(3).toString('hex')}`);
      if (!taken(id)) return id;
    }
  }

  private toRecord(id: ProfileId, spec: ProfileSpec, sealed: Sealed): ProfileRecord {
    const topology = topologyRecord(spec, sealed.sentinelPassword);
    return {
      id,
      name: spec.name,
      host: spec.host,
      port: spec.port,
      db: spec.db,
      ...(spec.username === undefined ? {} : { username: spec.username }),
      ...(sealed.password === undefined ? {} : { passwordSealed: sealed.password }),
      tls: { ...spec.tls },
      ...(topology === undefined ? {} : { topology }),
      ...(sealed.analyst === undefined ? {} : { analyst: sealed.analyst }),
      ...(sealed.ssh === undefined ? {} : { ssh: sealed.ssh }),
      ...(spec.tags === undefined || spec.tags.length === 0 ? {} : { tags: [...spec.tags] }),
    };
  }

  /** strict: a password that cannot be opened throws; otherwise it is left out. */
  private toStored(rec: ProfileRecord, strict: boolean): StoredProfile {
    const spec: ProfileSpec = {
      name: rec.name,
      host: rec.host,
      port: rec.port,
      db: rec.db,
      tls: { ...rec.tls },
      ...(rec.username === undefined ? {} : { username: rec.username }),
      ...(rec.tags === undefined ? {} : { tags: [...rec.tags] }),
    };
    const open = (sealed: string): string | undefined => {
      try {
        return this.box.open(sealed);
      } catch (err) {
        if (strict) throw err;
        return undefined;
      }
    };
    if (rec.passwordSealed !== undefined) {
      const password = open(rec.passwordSealed);
      if (password !== undefined) spec.password = password;
    }
    const t = rec.topology;
    if (t?.kind === 'cluster') spec.topology = { kind: 'cluster', seeds: t.seeds.map((a) => ({ ...a })) };
    if (t?.kind === 'sentinel') {
      const sentinelPassword = t.sentinelPasswordSealed === undefined ? undefined : open(t.sentinelPasswordSealed);
      spec.topology = {
        kind: 'sentinel',
        sentinels: t.sentinels.map((a) => ({ ...a })),
        masterName: t.masterName,
        ...(t.sentinelUsername === undefined ? {} : { sentinelUsername: t.sentinelUsername }),
        ...(sentinelPassword === undefined ? {} : { sentinelPassword }),
      };
    }
    if (rec.ssh !== undefined) spec.ssh = openSsh(rec.ssh, open);
    const a = rec.analyst;
    const analystPassword = a?.access === 'user' && a.passwordSealed !== undefined ? open(a.passwordSealed) : undefined;
    return {
      id: rec.id,
      source: 'user',
      spec,
      ...(a?.access === 'user' ? { analyst: { username: a.username, ...(analystPassword === undefined ? {} : { password: analystPassword }) } } : {}),
      ...(a?.access === 'none' ? { analystsRefused: true } : {}),
    };
  }
}

function topologyRecord(spec: ProfileSpec, sentinelPasswordSealed: string | undefined): TopologyRecord | undefined {
  const t = spec.topology;
  if (t === undefined) return undefined;
  if (t.kind === 'cluster') return { kind: 'cluster', seeds: t.seeds.map((a) => ({ ...a })) };
  return {
    kind: 'sentinel',
    sentinels: t.sentinels.map((a) => ({ ...a })),
    masterName: t.masterName,
    ...(t.sentinelUsername === undefined ? {} : { sentinelUsername: t.sentinelUsername }),
    ...(sentinelPasswordSealed === undefined ? {} : { sentinelPasswordSealed }),
  };
}

/** The view's topology field, present only for cluster and sentinel profiles. */
function withTopology(spec: ProfileSpec, rec: ProfileRecord | undefined): Pick<ProfileView, 'topology'> {
  const stored = rec?.topology?.kind === 'sentinel' && rec.topology.sentinelPasswordSealed !== undefined;
  const topology = viewTopology(spec, stored);
  return topology === undefined ? {} : { topology };
}
