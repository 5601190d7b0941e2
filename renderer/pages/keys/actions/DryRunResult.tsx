import type { KeyActionReport } from '../../../../app/schemas/keyActions';
import { Stat } from '../../../components/Stat';
import { formatBytes, formatCount, formatSeconds } from '../../../lib/format';
import { plural } from '../../../lib/plural';
import { KeyText } from '../../../components/KeyText';
import type { PageOp } from './actionForm';
import { ShardTable } from './ShardTable';

/**
 * What a run would touch, before it does: the exact count (per master on a cluster), up to 20
 * of the names (escaped, as text), and the memory they hold with its 95% interval.
 */
export function DryRunResult({ report: r, op }: { report: KeyActionReport; op: PageOp }) {
  const m = r.memory;
  return (
    <section className="ka-dry" aria-label="Dry run" data-testid="ka-dry-result">
      <dl className="stat-grid ka-stats">
        <Stat label="Would match" value={formatCount(r.matched)} sub={`exact, of ${plural(r.scanned, 'key')} scanned`} testId="ka-dry-matched" />
        <Stat
          label={op === 'delete' ? 'Memory freed' : 'Memory they hold'}
          value={m === null ? '—' : `${m.sampled >= r.matched ? '' : '≈ '}${formatBytes(m.bytes)}`}
          sub={memorySub(m, r.matched)}
          testId="ka-dry-memory"
        />
        <Stat label="Dry run took" value={formatSeconds(r.seconds)} sub={r.errors > 0 ? `${plural(r.errors, 'error')}` : 'nothing changed'} />
      </dl>
      <ShardTable shards={r.shards} dryRun testId="ka-dry-shards" />
      {r.notes.map((n, i) => (
        <p key={i} className="hint hint-warn" data-testid="ka-note">
          {n}
        </p>
      ))}
      {r.samples.length > 0 && (
        <div className="ka-samples">
          <span className="ka-label">
            {r.samples.length < r.matched ? `${formatCount(r.samples.length)} of the ${plural(r.matched, 'name')}` : `All ${plural(r.samples.length, 'name')}`}
          </span>
          <ul data-testid="ka-dry-samples">
            {r.samples.map((k) => (
              <li key={k.b64} data-testid="ka-sample">
                <KeyText name={k} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function memorySub(m: KeyActionReport['memory'], matched: number): string {
  if (m === null) return 'nothing matched';
  if (m.sampled >= matched) return `all ${formatCount(matched)} measured`;
  return `95 %: ${formatBytes(m.low)} – ${formatBytes(m.high)}, from ${formatCount(m.sampled)} sampled`;
}
