import type { SamplingReport } from '../../../app/schemas/sampling';
import { Stat } from '../../components/Stat';
import { formatBytes, formatCount, formatPercent, formatSeconds } from '../../lib/format';
import { formatMemoryInterval } from './report';

/** A sample's total memory: scaled to DBSIZE, with its 95% interval or why it has none. */
function totalIntervalText(i: SamplingReport['memoryTotalInterval']): string {
  if ('notEstimable' in i) return `scaled to DBSIZE · unreliable, not estimable: ${i.notEstimable}`;
  return `scaled to DBSIZE · 95%: ${formatMemoryInterval(i)}`;
}

/**
 * The headline figures of a report; a sample's totals are marked as estimates, and
 * an unfinished census' as a lower bound (it has not seen every key).
 */
export function SummaryStats({ report: r, partial }: { report: SamplingReport; partial: boolean }) {
  const sample = r.method === 'sample';
  const rate = r.seconds > 0 ? `${formatCount(r.keysExamined / r.seconds)} keys/s` : undefined;
  return (
    <dl className="stat-grid smp-summary" data-testid="sampling-summary">
      <Stat label="DBSIZE" value={formatCount(r.dbsize)} sub={`db${r.db}${r.match === undefined ? '' : ` · MATCH ${r.match}`}`} testId="sampling-dbsize" />
      <Stat
        label="Keys examined"
        value={formatCount(r.keysExamined)}
        sub={sample ? 'repeats counted' : `${formatPercent(r.dbsize > 0 ? r.keysExamined / r.dbsize : undefined)} of DBSIZE`}
        testId="sampling-keys-examined"
      />
      <Stat label="Time" value={formatSeconds(r.seconds)} sub={rate} />
      <Stat label="Memory examined" value={formatBytes(r.memoryTotal)} sub={r.memorySamples === 0 ? 'exact MEMORY USAGE' : `SAMPLES ${r.memorySamples}`} />
      <Stat
        label={sample ? 'Est. total memory' : 'Total memory'}
        value={`${sample ? '≈ ' : partial ? '≥ ' : ''}${formatBytes(r.estimatedMemoryTotal)}`}
        sub={sample ? totalIntervalText(r.memoryTotalInterval) : partial ? 'of the keys examined' : 'every key measured'}
        testId="sampling-estimated-memory"
      />
      <Stat label="Keys missing" value={formatCount(r.keysMissing)} sub="gone before probed" testId="sampling-keys-missing" />
      {/* Hash-field expiry (Redis 7.4+): shown only where the server reports it. */}
      {r.server?.subexpiry !== undefined && (
        <Stat label="Hashes with expiring fields" value={formatCount(r.server.subexpiry)} sub="INFO keyspace subexpiry" testId="sampling-subexpiry" />
      )}
      {r.server?.expiredSubkeys !== undefined && (
        <Stat
          label="Hash fields expired"
          value={formatCount(r.server.expiredSubkeys)}
          sub="INFO expired_subkeys, since start"
          testId="sampling-expired-subkeys"
        />
      )}
    </dl>
  );
}
