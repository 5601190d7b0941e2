import type { ProfileSpec } from '../../../app/schemas/connections';
import { mapSecrets, secretOf } from '../../../app/schemas/sshProfile';
import type { ProfileSecrets } from './candidate';

/** The export's opened secrets put back where the draft had none (exportedDraft wrote it without them). */
export function withSecrets(spec: ProfileSpec, s: ProfileSecrets | undefined): ProfileSpec {
  if (s === undefined) return spec;
  const out: ProfileSpec = { ...spec };
  if (s.password !== undefined) out.password = s.password;
  if (s.sentinelPassword !== undefined && out.topology?.kind === 'sentinel') out.topology = { ...out.topology, sentinelPassword: s.sentinelPassword };
  if (s.analystPassword !== undefined && out.analyst?.access === 'user') out.analyst = { ...out.analyst, password: s.analystPassword };
  if (s.ssh !== undefined && out.ssh !== undefined) {
    const given = s.ssh;
    out.ssh = mapSecrets(out.ssh, (i, a) => given[i] ?? secretOf(a) ?? undefined);
  }
  return out;
}

/** The same profile with no password, sentinel password, analysts' password or SSH secret. */
export function withoutSecrets(spec: ProfileSpec): ProfileSpec {
  const { password: _p, ...out } = spec;
  if (out.topology?.kind === 'sentinel') {
    const { sentinelPassword: _s, ...t } = out.topology;
    out.topology = t;
  }
  if (out.analyst?.access === 'user') {
    const { password: _a, ...a } = out.analyst;
    out.analyst = a;
  }
  if (out.ssh !== undefined) out.ssh = mapSecrets(out.ssh, () => undefined);
  return out;
}
