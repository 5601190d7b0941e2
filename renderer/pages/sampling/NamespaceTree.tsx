import { useMemo, useState, type ReactNode } from 'react';
import type { SamplingReport } from '../../../app/schemas/sampling';
import { formatBytes, formatCount } from '../../lib/format';
import { childCounts, formatShare, topNamespaces, type NamespaceMetric } from './report';

type Namespace = SamplingReport['namespaces'][number];

/** Rows shown per level; the rest is counted, not drawn (a keyspace can have thousands of prefixes). */
const PER_LEVEL = 50;

interface Props {
  report: SamplingReport;
  metric: NamespaceMetric;
}

/** The prefix tree (keys split on `:`), top level first; a prefix opens onto its children. */
export function NamespaceTree({ report, metric }: Props) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const children = useMemo(() => childCounts(report.namespaces), [report.namespaces]);
  const memoryTotal = report.memoryTotal;
  const sample = report.method === 'sample';

  const toggle = (prefix: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(prefix)) next.delete(prefix);
      else next.add(prefix);
      return next;
    });

  function level(parent: string, depth: number): ReactNode[] {
    const shown = topNamespaces(
      report.namespaces.filter((n) => n.parent === parent),
      metric,
      PER_LEVEL,
    );
    const rows: ReactNode[] = shown.flatMap((n) => [
      <Row
        key={n.prefix}
        ns={n}
        depth={depth}
        kids={children.get(n.prefix) ?? 0}
        open={open.has(n.prefix)}
        onToggle={() => toggle(n.prefix)}
        memoryTotal={memoryTotal}
        sample={sample}
      />,
      ...(open.has(n.prefix) ? level(n.prefix, depth + 1) : []),
    ]);
    const hidden = (children.get(parent) ?? 0) - shown.length;
    if (hidden > 0) {
      rows.push(
        <tr key={`${parent}…more`}>
          <td colSpan={5} className="muted smp-ns-more" style={{ paddingLeft: 8 + depth * 16 }}>
            {formatCount(hidden)} smaller prefixes not shown (the CSV export has them all)
          </td>
        </tr>,
      );
    }
    return rows;
  }

  return (
    <table className="data-table smp-table smp-ns-table" data-testid="sampling-namespaces">
      <caption>
        Prefix tree <span className="muted smp-caption-sub">keys split on “:”, sorted by {metric === 'memory' ? 'memory' : 'keys'}</span>
      </caption>
      <thead>
        <tr>
          <th scope="col">Prefix</th>
          <th scope="col" className="num">
            {sample ? 'Est. keys' : 'Keys'}
          </th>
          <th scope="col" className="num">
            {sample ? '% draws' : '% keys'}
          </th>
          <th scope="col" className="num">
            Memory
          </th>
          <th scope="col" className="num">
            % memory
          </th>
        </tr>
      </thead>
      <tbody>
        {report.namespaces.length === 0 ? (
          <tr>
            <td colSpan={5} className="empty">
              No key has a “:” prefix.
            </td>
          </tr>
        ) : (
          level('', 0)
        )}
      </tbody>
    </table>
  );
}

interface RowProps {
  ns: Namespace;
  depth: number;
  kids: number;
  open: boolean;
  onToggle(): void;
  memoryTotal: number;
  /** A sample's row counts draws: the keys are an estimate, shown with its 95% interval. */
  sample: boolean;
}

function Row({ ns, depth, kids, open, onToggle, memoryTotal, sample }: RowProps) {
  return (
    <tr data-prefix={ns.prefix} data-depth={depth}>
      <th scope="row" className="smp-ns-cell">
        <span className="smp-ns-name" style={{ paddingLeft: depth * 16 }}>
          {kids > 0 ? (
            <button
              type="button"
              className="smp-ns-toggle"
              aria-expanded={open}
              aria-label={`${open ? 'Close' : 'Open'} ${ns.prefix} (${kids} below)`}
              onClick={onToggle}
            >
              {open ? '▾' : '▸'}
            </button>
          ) : (
            <span className="smp-ns-toggle" aria-hidden="true" />
          )}
          <span className="smp-ns-prefix" title={ns.prefix}>
            {ns.prefix}
          </span>
        </span>
      </th>
      <td className="num" data-col="keys" title={sample ? `${formatCount(ns.count)} draws` : undefined}>
        {sample ? <KeysEstimate ns={ns} /> : formatCount(ns.keys)}
      </td>
      <td className="num">{formatShare(ns.percent)}</td>
      <td className="num">{formatBytes(ns.memory)}</td>
      <td className="num">{formatShare(memoryTotal > 0 ? (ns.memory / memoryTotal) * 100 : Number.NaN)}</td>
    </tr>
  );
}

/** "≈ 5,012" over "95%: 4,801 – 5,230 · 1,253 draws": keys estimated from draws, never the draws called keys. */
function KeysEstimate({ ns }: { ns: Namespace }) {
  return (
    <>
      ≈ {formatCount(ns.keys)}
      <span className="smp-ci-sub" data-col="keys-interval">
        95%: {formatCount(ns.keysLow)} – {formatCount(ns.keysHigh)} · {formatCount(ns.count)} draws
      </span>
    </>
  );
}
