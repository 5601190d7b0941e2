export type Step = 'select' | 'dry' | 'confirm' | 'progress' | 'report';

const STEPS: readonly { step: Step; label: string }[] = [
  { step: 'select', label: 'Select' },
  { step: 'dry', label: 'Dry run' },
  { step: 'confirm', label: 'Confirm' },
  { step: 'progress', label: 'Progress' },
  { step: 'report', label: 'Report' },
];

/** Where the dialog stands in the page's fixed order: the dry run always comes before the action. */
export function Steps({ step }: { step: Step }) {
  const at = STEPS.findIndex((s) => s.step === step);
  return (
    <ol className="ka-steps" aria-label="Steps">
      {STEPS.map((s, i) => (
        <li key={s.step} className={i < at ? 'is-past' : i === at ? 'is-now' : undefined} aria-current={i === at ? 'step' : undefined}>
          <span className="ka-step-no" aria-hidden="true">
            {i + 1}
          </span>
          {s.label}
        </li>
      ))}
    </ol>
  );
}
