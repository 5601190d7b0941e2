interface Props<T extends string | number> {
  /** The group's accessible name, e.g. "Time window". */
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange(value: NoInfer<T>): void;
  testId?: string;
}

/** A row of joined toggle buttons choosing one of a few values (a time window, a type, memory or count). */
export function Segmented<T extends string | number>({ label, options, value, onChange, testId }: Props<T>) {
  return (
    <span className="segmented" role="group" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button key={o.value} type="button" className="btn btn-small" aria-pressed={value === o.value} onClick={() => onChange(o.value)}>
          {o.label}
        </button>
      ))}
    </span>
  );
}
