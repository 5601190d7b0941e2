import { AppError } from '../../../app/errors';
import { formatHostPort } from '../../../app/hostPort';
import type { ImportPreview } from '../../../app/schemas/profileTransfer';
import type { ProfileId } from '../../../app/schemas/common';
import type { ProfileStore } from '../pool/profileStore';
import type { StoredProfile } from '../pool/types';
import { buildExport, type BuiltExport } from './exportFile';
import { withoutSecrets } from './importSecrets';
import { planImport, readImportFile, type PlannedProfile } from './importFile';

export interface ExportRequest {
  ids?: readonly ProfileId[] | undefined;
  includeSecrets: boolean;
  passphrase?: string | undefined;
}

/**
 * The chosen user profiles as an export file. Profiles from the server configuration or the
 * embedded server are not the user's to carry elsewhere, so a request naming one is refused.
 */
export function exportProfiles(store: ProfileStore, req: ExportRequest): BuiltExport {
  const users = store.list().filter((p) => p.source === 'user');
  let chosen: StoredProfile[] = users;
  if (req.ids !== undefined) {
    chosen = req.ids.map((id) => {
      const p = users.find((u) => u.id === id);
      if (p === undefined) throw new AppError('NOT_FOUND', `No profile "${id}" that can be exported (profiles from the server configuration cannot).`, 'ids');
      return p;
    });
  }
  if (chosen.length === 0) throw new AppError('VALIDATION', 'There is no profile to export.', 'ids');
  // Opened one by one (strict): a secret that cannot be opened is an error, not a silent gap in the file.
  const full = req.includeSecrets ? chosen.map((p) => store.get(p.id) ?? p) : chosen;
  return buildExport(full, { passphrase: req.includeSecrets ? req.passphrase : undefined });
}

const fold = (name: string): string => name.trim().toLowerCase();

/** `name (imported)`, `name (imported 2)`, …: the first not taken, kept within the 100 characters a name may have. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' (imported)' : ` (imported ${n})`;
    const candidate = name.slice(0, 100 - suffix.length) + suffix;
    if (!taken.has(fold(candidate))) return candidate;
  }
}

interface Resolved {
  planned: PlannedProfile;
  collision: boolean;
  renamedTo?: string;
}

/** Same names (case and spaces aside) as a stored profile or an earlier entry of the file. */
function resolveNames(store: ProfileStore, planned: readonly PlannedProfile[]): Resolved[] {
  const taken = new Set(store.list().map((p) => fold(p.spec.name)));
  return planned.map((p) => {
    const collision = taken.has(fold(p.spec.name));
    const renamedTo = collision ? freeName(p.spec.name, taken) : undefined;
    taken.add(fold(renamedTo ?? p.spec.name));
    return { planned: p, collision, ...(renamedTo === undefined ? {} : { renamedTo }) };
  });
}

/** What the file would add: nothing is written. Errors (bad entry, wrong passphrase) are the commit's too. */
export function previewImport(store: ProfileStore, content: string, passphrase?: string): ImportPreview {
  const plan = planImport(readImportFile(content, passphrase));
  return {
    format: plan.format,
    secretsIncluded: plan.secretsIncluded,
    passwordStorage: store.passwordStorage(),
    entries: resolveNames(store, plan.profiles).map(({ planned: p, collision, renamedTo }) => {
      const t = p.spec.topology;
      const start = formatHostPort({ host: p.spec.host, port: p.spec.port });
      return {
        index: p.index,
        name: p.spec.name,
        kind: t?.kind ?? 'standalone',
        address: t === undefined && p.spec.db !== 0 ? `${start}/${p.spec.db}` : start,
        tls: p.spec.tls.enabled,
        ssh: p.spec.ssh !== undefined,
        tags: p.spec.tags ?? [],
        mapped: p.mapped,
        ignored: p.ignored,
        secrets: p.secrets,
        collision,
        ...(renamedTo === undefined ? {} : { renamedTo }),
      };
    }),
  };
}

/**
 * Import the whole file in one write (ProfileStore.addAll): the file is read and checked again
 * here, not trusted from the preview, and any failure leaves profiles.json as it was.
 */
export interface CommitOptions {
  onCollision: 'rename' | 'skip';
  /** Leave every secret of the file out (no safe place to store them here, or the user would rather type them). */
  dropSecrets?: boolean;
}

export function commitImport(
  store: ProfileStore,
  content: string,
  passphrase: string | undefined,
  opts: CommitOptions,
): { imported: StoredProfile[]; skipped: string[] } {
  const { onCollision } = opts;
  const plan = planImport(readImportFile(content, passphrase));
  const resolved = resolveNames(store, plan.profiles);
  const skipped = onCollision === 'skip' ? resolved.filter((r) => r.collision).map((r) => r.planned.spec.name) : [];
  const specs = resolved
    .filter((r) => !(r.collision && onCollision === 'skip'))
    .map((r) => (r.renamedTo === undefined ? r.planned.spec : { ...r.planned.spec, name: r.renamedTo }))
    .map((spec) => (opts.dropSecrets === true ? withoutSecrets(spec) : spec));
  return { imported: specs.length === 0 ? [] : store.addAll(specs), skipped };
}
