import { CounterStat } from '../../components/CounterStat';
import { formatBytes, formatCount } from '../../lib/format';
import type { PaneFeed } from './paneFeed';

/** Above this the MONITOR client's output buffer is a warning: Redis holds it in its own memory. */
export const OMEM_WARN_BYTES = 1024 * 1024;

/**
 * The viewer's counters exactly as the server counted them, all from one batch so they
 * add up: Received = Unparsed + Filtered out + Matched, Matched = Delivered + Dropped.
 * Then what the node is sending.
 */
export function Counters({ feed }: { feed: PaneFeed }) {
  const c = feed.counters;
  const s = feed.stats;
  return (
    <dl className="stat-grid mon-counters" aria-label="Counters">
      <CounterStat
        label="Received"
        value={c?.received}
        sub={c === undefined || c.unparsed === 0 ? 'since this page started' : `${formatCount(c.unparsed)} unparsed`}
        testId="monitor-received"
        title="Every line the node sent on the MONITOR connection since this page started watching it"
      />
      <CounterStat label="Unparsed" value={c?.unparsed} sub="not a MONITOR line" testId="monitor-unparsed" />
      <CounterStat label="Filtered out" value={c?.filteredOut} sub="left out by the filter" testId="monitor-filtered" />
      <CounterStat label="Matched" value={c?.matched} sub="kept by the filter" testId="monitor-matched" />
      <CounterStat label="Delivered" value={c?.delivered} sub="sent to this page" testId="monitor-delivered" />
      <CounterStat
        label="Dropped"
        value={c?.dropped}
        sub="lines dropped"
        testId="monitor-dropped"
        warn={(c?.dropped ?? 0) > 0}
        title="Lines the filter kept that this page could not take in time: counted on the server, never shown"
      />
      <CounterStat label="Node lines/s" value={s?.linesPerSec} sub="all, before filters" testId="monitor-rate" />
      <CounterStat
        label="MONITOR omem"
        value={s?.omem}
        text={s?.omem === undefined ? undefined : formatBytes(s.omem)}
        sub={s !== undefined && s.omem === undefined ? 'not known (CLIENT LIST)' : 'output buffer on the node'}
        testId="monitor-omem"
        warn={(s?.omem ?? 0) > OMEM_WARN_BYTES}
        title="Memory the node holds for lines it has not sent to Cacheboard yet (CLIENT LIST omem); not known until CLIENT LIST is read, or when ACL denies it"
      />
    </dl>
  );
}
