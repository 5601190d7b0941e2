/**
 * The navigation, in order. Jobs not built yet carry `soon`: one sentence on what
 * the page will do, shown by the shared ComingSoon panel.
 */
export interface PageEntry {
  route: string;
  label: string;
  soon?: string;
}

export const PAGES: readonly PageEntry[] = [
  { route: 'connections', label: 'Connections' },
  { route: 'overview', label: 'Overview' },
  { route: 'bulk-load', label: 'Bulk load' },
  { route: 'sampling', label: 'Sampling' },
  { route: 'audience-trials', label: 'Audience trials' },
  { route: 'pipeline-trials', label: 'Pipeline trials' },
  { route: 'monitor', label: 'Monitor' },
  { route: 'audit', label: 'Audit log' },
];

export const DEFAULT_ROUTE = 'overview';
