import type { ComponentType } from 'react';
import { AudienceTrialsPage } from './AudienceTrials';
import { AuditPage } from './Audit';
import { BulkLoadPage } from './BulkLoad';
import { ConnectionsPage } from './Connections';
import { KeysPage } from './Keys';
import { MonitorPage } from './Monitor';
import { OverviewPage } from './Overview';
import { PipelineTrialsPage } from './PipelineTrials';
import { SamplingPage } from './Sampling';

/**
 * Every page, in navigation order: the one table the sidebar draws and the
 * router (App) renders from. A new page is one row here.
 */
export interface PageEntry {
  /** The hash route: `#/<route>`. */
  route: string;
  /** The sidebar's link text and the page's heading. */
  label: string;
  component: ComponentType;
}

export const PAGES: readonly PageEntry[] = [
  { route: 'connections', label: 'Connections', component: ConnectionsPage },
  { route: 'overview', label: 'Overview', component: OverviewPage },
  { route: 'keys', label: 'Keys', component: KeysPage },
  { route: 'bulk-load', label: 'Bulk load', component: BulkLoadPage },
  { route: 'sampling', label: 'Sampling', component: SamplingPage },
  { route: 'audience-trials', label: 'Audience trials', component: AudienceTrialsPage },
  { route: 'pipeline-trials', label: 'Pipeline trials', component: PipelineTrialsPage },
  { route: 'monitor', label: 'Monitor', component: MonitorPage },
  { route: 'audit', label: 'Audit log', component: AuditPage },
];

export const DEFAULT_ROUTE = 'overview';
