import { formatCount } from '../lib/format';

interface Props {
  label: string;
  value: number | undefined;
  /** Shown instead of the count (a size in bytes). */
  text?: string | undefined;
  sub: string;
  testId: string;
  warn?: boolean;
  title?: string;
}

/**
 * One exact figure in a `<dl className="stat-grid">` of a live page (MONITOR, Pub/Sub):
 * `data-value` holds the number as the server counted it, for tools that read the page.
 */
export function CounterStat({ label, value, text, sub, testId, warn = false, title }: Props) {
  return (
    <div className={`stat live-counter${warn ? ' is-warn' : ''}`} title={title}>
      <dt>{label}</dt>
      <dd>
        <span className="stat-value" data-testid={testId} data-value={value ?? ''}>
          {value === undefined ? '—' : (text ?? formatCount(value))}
        </span>
        <span className="stat-sub">{sub}</span>
      </dd>
    </div>
  );
}
