import type { ComponentType } from 'react';
import type { Name } from '../../app/contract';
import { AudiencePage } from '../pages/audience/AudiencePage';
import { AuditPage } from '../pages/audit/AuditPage';
import { BulkPage } from '../pages/bulk/BulkPage';
import { ClientsPage } from '../pages/clients/ClientsPage';
import { ConfigPage } from '../pages/config/ConfigPage';
import { ConnectionsPage } from '../pages/connections/ConnectionsPage';
import { ConsolePage } from '../pages/console/ConsolePage';
import { KeysPage } from '../pages/keys/KeysPage';
import { MetricsPage } from '../pages/metrics/MetricsPage';
import { MonitorPage } from '../pages/monitor/MonitorPage';
import { PubSubPage } from '../pages/pubsub/PubSubPage';
import { SamplingPage } from '../pages/sampling/SamplingPage';
import { TrialsPage } from '../pages/trials/TrialsPage';

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
  /**
   * The contract call or stream the page cannot work without. Its role in the contract
   * decides who may open the page (no list of roles here): the sidebar marks it, and a
   * session below that role gets a notice instead of controls that would be refused.
   */
  needs?: Name;
  /** What the page does, for the notice a user without that role reads in its place. */
  purpose?: string;
}

export const PAGES: readonly PageEntry[] = [
  { route: 'connections', label: 'Connections', component: ConnectionsPage },
  { route: 'overview', label: 'Overview', component: MetricsPage },
  { route: 'keys', label: 'Keys', component: KeysPage },
  { route: 'console', label: 'Console', component: ConsolePage },
  { route: 'bulk-load', label: 'Bulk load', component: BulkPage, needs: 'bulk.start', purpose: 'Bulk load replaces or merges the keys of a DB.' },
  { route: 'sampling', label: 'Sampling', component: SamplingPage },
  { route: 'audience-trials', label: 'Audience trials', component: AudiencePage },
  {
    route: 'pipeline-trials',
    label: 'Pipeline trials',
    component: TrialsPage,
    needs: 'trials.start',
    purpose: 'Pipeline trials write scratch keys and load the server while they run.',
  },
  {
    route: 'monitor',
    label: 'Monitor',
    component: MonitorPage,
    needs: 'monitor.watch',
    purpose: 'Monitor shows every command with its values, and costs the server while it runs.',
  },
  { route: 'pubsub', label: 'Pub/Sub', component: PubSubPage },
  { route: 'clients', label: 'Clients', component: ClientsPage },
  { route: 'config', label: 'Config', component: ConfigPage },
  { route: 'audit', label: 'Audit log', component: AuditPage, needs: 'audit.list', purpose: 'The audit log names who ran what against which server.' },
];

export const DEFAULT_ROUTE = 'overview';
