/** One figure in a `<dl className="stats">`: a label, a big value and an optional line under it. */
export function Stat({ label, value, testId, sub }: { label: string; value: string; testId?: string; sub?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <span className="stat-value" data-testid={testId}>
          {value}
        </span>
        {sub !== undefined && <span className="stat-sub">{sub}</span>}
      </dd>
    </div>
  );
}
