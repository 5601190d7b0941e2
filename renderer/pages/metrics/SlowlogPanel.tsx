import { takesKey } from '../../../app/redis/commands';
import { useCall } from '../../bridge/useCall';
import { KeyOpenLink } from '../../components/KeyOpenLink';
import { clock, commandLine, formatMicros, hiddenArgsNote } from '../../lib/display';
import { formatLatency, truncate } from '../../lib/format';
import { RestrictionNotice } from '../../components/RestrictionNotice';
import { InlineError } from './InlineError';

const REFRESH_MS = 10_000;

/** Redis keeps 128 bytes of a long SLOWLOG argument and says how many more there were: such a key is cut, so not linked. */
const CUT_ARG = /\.\.\. \(\d+ more bytes\)$/;

/** The entry's key, when its command names one first (SLOWLOG records no DB: the link opens the profile's). */
function KeyLink({ profileId, args }: { profileId: string; args: readonly string[] }) {
  const [command, key] = args;
  if (command === undefined || key === undefined || !takesKey(command.toUpperCase())) return null;
  return (
    <KeyOpenLink profileId={profileId} escaped={key} cut={CUT_ARG.test(key)} fallback={null}>
      <span className="ov-key-link">↗ key</span>
    </KeyOpenLink>
  );
}

/**
 * SLOWLOG GET and LATENCY LATEST of the selected node, every 10 s and on demand.
 * Arguments come from whoever wrote to Redis: shown as text, cut, whole in the title.
 * An analyst gets the command and key only (the server withholds the values), with a note.
 */
export function SlowlogPanel({ profileId, address, up }: { profileId: string; address: string; up: boolean }) {
  const res = useCall('metrics.slowlog', up ? { profileId, address, count: 32 } : undefined, { intervalMs: REFRESH_MS });
  const data = res.data;
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
        <table className="data-table ov-table ov-slowlog-table" data-testid="slowlog">
          <caption>SLOWLOG</caption>
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Time</th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col">Command</th>
              <th scope="col">Client</th>
            </tr>
          </thead>
          <tbody>
            {data === undefined || data.slowlog.length === 0 ? (
              <tr>
                <td colSpan={5} className="empty">
                  {data === undefined ? (up && res.loading ? 'Loading…' : '—') : 'The slow log is empty.'}
                </td>
              </tr>
            ) : (
              data.slowlog.map((e) => {
                const cmd = commandLine(e.args);
                const hidden = hiddenArgsNote(e.argsHidden);
                const client = e.clientName === '' ? e.client : `${e.client} (${e.clientName})`;
                return (
                  <tr key={e.id} data-id={e.id}>
                    <td className="mono">{e.id}</td>
                    <td className="mono">{clock(e.at)}</td>
                    <td className="num">{formatMicros(e.durationUs)}</td>
                    <td className="mono ov-cmd" title={hidden === undefined ? cmd.full : `${cmd.full} ${hidden}: values are shown to ops only`}>
                      <KeyLink profileId={profileId} args={e.args} />
                      {cmd.short}
                      {hidden !== undefined && <span className="muted ov-args-hidden"> {hidden}</span>}
                    </td>
                    <td className="mono ov-client" title={client}>
                      {truncate(client, 28)}
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
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
                  {data === undefined ? '—' : 'No latency events (or latency-monitor-threshold is 0).'}
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
    </section>
  );
}
