import type { ProfileView } from '../../app/schemas/connections';

/** `host:port/db`, bracketing IPv6 hosts the way redis:// URLs do. */
export function addressOf(p: { host: string; port: number; db: number }): string {
  const host = p.host.includes(':') ? `[${p.host}]` : p.host;
  return `${host}:${p.port}/${p.db}`;
}

/**
 * What a profile points at, in one line for its row: the server, a cluster's
 * first seed, or the master name and first sentinel; `all` lists every
 * address for a tooltip.
 */
export function whereOf(p: ProfileView): { kind: 'standalone' | 'cluster' | 'sentinel'; text: string; all: string } {
  const t = p.topology;
  const more = (list: string[], noun: string) => (list.length > 1 ? ` (+${list.length - 1} ${noun})` : '');
  if (t?.kind === 'cluster') {
    return { kind: 'cluster', text: `${t.seeds[0] ?? ''}${more(t.seeds, 'seeds')}`, all: `seeds: ${t.seeds.join(', ')}` };
  }
  if (t?.kind === 'sentinel') {
    return {
      kind: 'sentinel',
      text: `${t.masterName}/${p.db} via ${t.sentinels[0] ?? ''}${more(t.sentinels, 'sentinels')}`,
      all: `master "${t.masterName}", DB ${p.db}; sentinels: ${t.sentinels.join(', ')}`,
    };
  }
  return { kind: 'standalone', text: addressOf(p), all: addressOf(p) };
}
