import { useState } from 'react';
import { useCall } from '../../bridge/useCall';
import { Segmented } from '../../components/Segmented';
import { clock, formatMicros } from '../../lib/display';
import { formatBytes, formatCount, formatLatency, truncate } from '../../lib/format';
import { RestrictionNotice } from '../../components/RestrictionNotice';
import type { ProfileView } from '../../../app/schemas/connections';
import { InlineError } from './InlineError';
import { LatencyMonitorLine } from './LatencyMonitorLine';
import { LogTable } from './LogTable';

const REFRESH_MS = 10_000;

type Tab = 'slow' | 'largeRequest' | 'largeReply';
/** Valkey 8.1's COMMANDLOG types beside the slow log (which SLOWLOG shows on every server). */
const TABS: readonly { value: Tab; label: string }[] = [
  { value: 'slow', label: 'Slow' },
  { value: 'largeRequest', label: 'Large requests' },
  { value: 'largeReply', label: 'Large replies' },
];

/**
 * SLOWLOG GET and LATENCY LATEST of the selected node, every 10 s and on demand; where the node
 * has COMMANDLOG (the server says so), its large-request and large-reply logs in tabs beside the slow log.
 * Arguments come from whoever wrote to Redis: shown as text, cut, whole in the title.
 * An analyst gets the command and key only (the server withholds the values), with a note.
 */
export function SlowlogPanel({ profile, address, up }: { profile: ProfileView; address: string; up: boolean }) {
  const profileId = profile.id;
  const res = useCall('metrics.slowlog', up ? { profileId, address, count: 32 } : undefined, { intervalMs: REFRESH_MS });
  const data = res.data;
  const [tab, setTab] = useState<Tab>('slow');
  const logs = data?.commandlog;
  // A node without COMMANDLOG (another node picked, a failover to an older one) shows the slow log.
  const shownTab: Tab = logs === undefined ? 'slow' : tab;
  return (
    <section className="panel ov-slowlog" aria-label="Slow log and latency">
      <header className="ov-panel-head">
        <h2>
          Slow log &amp; latency <span className="muted mono ov-caption-sub">{address}</span>
        </h2>
        <span className="muted ov-head-note">every {REFRESH_MS / 1000} s</span>
        <button type="button" className="btn btn-small" onClick={res.refresh} disabled={!up || res.loading}>
          Refresh
        </button>
      </header>
      {!up && <p className="empty">The node is down: nothing to read.</p>}
      {up && res.error !== undefined && <InlineError error={res.error} title="Cannot read the slow log:" />}
      {up && <RestrictionNotice restrictions={data?.restrictions ?? []} />}
      <div className="ov-slowlog-grid">
        <div className="ov-log-tabs">
          {logs !== undefined && <Segmented label="Command log" options={TABS} value={tab} onChange={setTab} testId="commandlog-tabs" />}
          {shownTab === 'slow' ? (
            <LogTable
              profileId={profileId}
              caption="SLOWLOG"
              measure="Duration"
              rows={data?.slowlog.map((e) => ({ ...e, measure: formatMicros(e.durationUs) }))}
              empty={data === undefined ? (up && res.loading ? 'Loading…' : '—') : 'The slow log is empty.'}
              testId="slowlog"
            />
          ) : (
            <LogTable
              profileId={profileId}
              caption={`COMMANDLOG ${shownTab === 'largeRequest' ? 'large-request' : 'large-reply'} · ${formatCount(logs?.[shownTab].length ?? 0)} logged`}
              measure="Size"
              rows={logs?.[shownTab].entries.map((e) => ({ ...e, measure: formatBytes(e.bytes) }))}
              empty={shownTab === 'largeRequest' ? 'No request over commandlog-request-larger-than.' : 'No reply over commandlog-reply-larger-than.'}
              testId="commandlog"
            />
          )}
        </div>
        <div className="ov-latency">
          <LatencyMonitorLine profile={profile} address={address} up={up} />
          <table className="data-table ov-table" data-testid="latency">
            <caption>LATENCY LATEST</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">At</th>
                <th scope="col" className="num">
                  Latest
                </th>
                <th scope="col" className="num">
                  Max
                </th>
              </tr>
            </thead>
            <tbody>
              {data === undefined || data.latency.length === 0 ? (
                <tr>
                  <td colSpan={4} className="empty">
                    {data === undefined ? '—' : 'No latency events.'}
                  </td>
                </tr>
              ) : (
                data.latency.map((l) => (
                  <tr key={l.event}>
                    <th scope="row" title={l.event}>
                      {truncate(l.event, 28)}
                    </th>
                    <td className="mono">{clock(l.at)}</td>
                    <td className="num">{formatLatency(l.latestMs)}</td>
                    <td className="num">{formatLatency(l.maxMs)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
