import { useId, useState } from 'react';
import type { ProfileView } from '../../../../app/schemas/connections';
import { useBridge } from '../../../bridge/BridgeContext';
import { DroppedNote } from '../../../components/DroppedNote';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { JobLost } from '../../../components/JobLost';
import { useJobRun, type JobRun } from '../../../lib/useJobRun';
import { useModalDialog } from '../../../lib/useModalDialog';
import { useStart } from '../../../lib/useStart';
import { CONTROLS, controlOf, formFor, isWholeDb, startInput, type ActionForm, type ActionTarget, type PageOp } from './actionForm';
import { commandText, OP_WORDS, selectionText } from './actionText';
import { actionRuns, type ActionView } from './actionView';
import { ConfirmRun } from './ConfirmRun';
import { DryRunResult } from './DryRunResult';
import { RunStatus } from './RunStatus';
import { SelectionForm } from './SelectionForm';
import { Steps, type Step } from './Steps';
import './actions.css';

interface Props {
  profile: ProfileView;
  db: number;
  target: ActionTarget;
  op: PageOp;
  /** The dialog closes; `acted` once a real run changed keys (the page then reads its tree and list again). */
  onClose(ended: { op: PageOp; acted: number } | undefined): void;
}

/**
 * A bulk action on the Keys page, in the order the page always takes: the selection and the
 * action, a dry run (exact count, names, memory), the confirmation, the progress, the report.
 * A modal dialog: the page behind it stays as it was, and while a run goes the dialog stays
 * open (Cancel stops it; its report says what it did).
 */
export function KeyActionsDialog({ profile, db, target, op, onClose }: Props) {
  const bridge = useBridge();
  const titleId = useId();
  const [form, setForm] = useState<ActionForm>(() => formFor(target, op));
  const [dryJob, setDryJob] = useState<string>();
  const [runJob, setRunJob] = useState<string>();
  const [confirm, setConfirm] = useState('');
  const { start, starting, errors, error, clear } = useStart(controlOf);
  const dry = useJobRun(actionRuns, dryJob);
  const run = useJobRun(actionRuns, runJob);
  const busy = dry.running || run.running || starting;

  // The server may say the selection is the whole DB where the page did not (`**`): ask for the DB then too.
  const needsDb = isWholeDb(form, target) || errors.confirmDb !== undefined;
  const dryReport = dry.view.outcome === 'done' ? dry.view.report : undefined;
  const step: Step =
    runJob !== undefined
      ? run.view.outcome === undefined
        ? 'progress'
        : 'report'
      : dryReport !== undefined
        ? 'confirm'
        : dryJob !== undefined
          ? 'dry'
          : 'select';

  const patch = (p: Partial<ActionForm>) => {
    // Any change makes the dry run's figures someone else's: it is run again before a confirmation.
    setDryJob(undefined);
    setConfirm('');
    clear(CONTROLS.filter((c) => c !== 'confirmDb'));
    setForm((f) => ({ ...f, ...p }));
  };

  const begin = (dryRun: boolean, resume?: string) =>
    start(async () => {
      const { jobId } = await bridge.invoke('keys.actions.start', startInput({ form, target, profileId: profile.id, db, dryRun, confirm, resume }));
      if (dryRun) setDryJob(jobId);
      else setRunJob(jobId);
    });

  // A real run cut short (cancelled, or failed part-way) kept its SCAN cursors: it can go on.
  const cut = runJob !== undefined && run.view.outcome !== undefined && run.view.outcome !== 'done' ? run.view.report?.runId : undefined;

  const close = () => {
    if (busy) return;
    const acted = runJob === undefined ? undefined : (run.view.report?.acted ?? 0);
    onClose(acted === undefined ? undefined : { op: form.op, acted });
  };
  // Escape closes, except while a run goes: it must be cancelled (or end) first.
  const modal = useModalDialog(close);

  return (
    <dialog {...modal} className="ka-dialog" aria-labelledby={titleId} data-testid="ka-dialog" data-step={step}>
      <header className="ka-head">
        <h2 id={titleId}>{OP_WORDS[form.op].title}</h2>
        <span className="muted">
          db{db} on {profile.name}
        </span>
        <button type="button" className="btn btn-small btn-ghost ka-x" onClick={close} disabled={busy} aria-label="Close" data-testid="ka-close-x">
          ×
        </button>
      </header>
      <Steps step={step} />
      <div className="ka-body">
        {runJob !== undefined ? (
          <Followed jobId={runJob} follow={run} op={form.op} dryRun={false} title={`${OP_WORDS[form.op].title} matching ${target.match}`} />
        ) : dryReport !== undefined ? (
          <>
            <DryRunResult report={dryReport} op={form.op} />
            <ConfirmRun
              op={form.op}
              matched={dryReport.matched}
              selection={selectionText(form, target)}
              command={commandText(form)}
              db={db}
              profileName={profile.name}
              needsDb={needsDb}
              confirm={confirm}
              onConfirm={(typed) => {
                setConfirm(typed);
                clear(['confirmDb']);
              }}
              confirmError={errors.confirmDb}
              starting={starting}
              startError={error}
              onStart={() => void begin(false)}
              onBack={() => setDryJob(undefined)}
            />
          </>
        ) : (
          <>
            <fieldset className="ka-form" disabled={dry.running} data-testid="ka-form">
              <SelectionForm target={target} form={form} onChange={patch} errors={errors} />
            </fieldset>
            <div className="job-start-row">
              <button type="button" className="btn btn-primary" onClick={() => void begin(true)} disabled={busy} aria-busy={starting} data-testid="ka-dry-run">
                {starting ? 'Starting…' : dry.running ? 'Dry run…' : 'Dry run'}
              </button>
              <span className="hint">Counts what would be done, with the names and the memory; changes nothing.</span>
              {/* A refusal that names no input (a read-only profile, a role): said here. */}
              <ErrorAlert error={error} title="Could not start:" />
            </div>
            {dryJob !== undefined && <Followed jobId={dryJob} follow={dry} op={form.op} dryRun title={`Dry run of ${target.match}`} />}
          </>
        )}
      </div>
      {step === 'report' && (
        <footer className="ka-foot">
          {cut !== undefined && (
            <>
              <span className="hint">It kept its place: Resume goes on where it stopped, with counts that add up over both parts.</span>
              <button type="button" className="btn" onClick={() => void begin(false, cut)} disabled={starting} data-testid="ka-resume">
                Resume
              </button>
            </>
          )}
          <ErrorAlert error={error} title="Could not resume:" />
          <button type="button" className="btn btn-primary" onClick={close} data-testid="ka-done">
            Done
          </button>
        </footer>
      )}
    </dialog>
  );
}

/** A followed run: its status, or why the page lost it. */
function Followed({ jobId, follow, ...rest }: { jobId: string; follow: JobRun<ActionView>; op: PageOp; dryRun: boolean; title: string }) {
  if (follow.lost) {
    return (
      <JobLost
        error={follow.streamError}
        title={`Cannot follow run ${jobId}:`}
        note="The server may have restarted since it began; a real run cut so can be resumed from the CLI (--resume)."
      />
    );
  }
  return (
    <>
      <RunStatus jobId={jobId} view={follow.view} {...rest} />
      <DroppedNote dropped={follow.dropped} />
    </>
  );
}
