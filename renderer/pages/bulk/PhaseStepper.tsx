import { stepsOf, type LoadPhase, type LoadView } from './loadView';

const LABEL = {
  preflight: 'Preflight',
  staging: 'Staging',
  loading: 'Loading',
  verifying: 'Verifying',
  swapping: 'Swapping',
  bgsave: 'BGSAVE',
  replicas: 'Replicas',
  cleanup: 'Cleanup',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
} as const satisfies Record<LoadPhase, string>;

/** The phases in order, the current one highlighted, each with the server's latest message for it. */
export function PhaseStepper({ view }: { view: LoadView }) {
  return (
    <ol className="panel bulk-steps" aria-label="Phases">
      {stepsOf(view).map((s) => (
        <li
          key={s.phase}
          className={`bulk-phase-step is-${s.state}`}
          data-phase={s.phase}
          data-state={s.state}
          aria-current={s.state === 'current' ? 'step' : undefined}
        >
          <span className="bulk-phase-dot" aria-hidden="true" />
          <span className="bulk-phase-name">{LABEL[s.phase]}</span>
          {s.state === 'skipped' && <span className="bulk-phase-msg muted">skipped</span>}
          {s.message !== undefined && (
            <span className="bulk-phase-msg" title={s.message}>
              {s.message}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
