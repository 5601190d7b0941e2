import { useMemo, useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { DroppedNote } from '../../components/DroppedNote';
import { JobLost } from '../../components/JobLost';
import { WithProfile } from '../../components/WithProfile';
import { useJobRun } from '../../lib/useJobRun';
import { controlOf, DEFAULT_FORM, type TrialForm } from './form';
import { KeptRunsPanel } from './KeptRunsPanel';
import { currentRun, formOf, keepForm, keepRun, setCurrentRun, trialRuns, useKeptRuns, type CurrentRun } from './pageSession';
import { reportResults, resultsOf } from './results';
import { TrialControls } from './TrialControls';
import { TrialResults } from './TrialResults';
import { TrialStatus } from './TrialStatus';
import '../../components/jobPage.css';
import './trials.css';

/**
 * Pipeline trials: round trips against pipelines, MULTI/EXEC and multiplexing,
 * measured on the real server. One trial runs at a time per profile; every
 * finished run is kept for the page session so runs can be compared.
 */
export function TrialsPage() {
  return (
    <WithProfile purpose="time round trips, pipelines and transactions on it" testId="trials-no-profile">
      {(profile) => <ProfileTrials profile={profile} />}
    </WithProfile>
  );
}

function ProfileTrials({ profile }: { profile: ProfileView }) {
  const [run, setRun] = useState<CurrentRun | undefined>(() => currentRun(profile.id));
  const [form, setForm] = useState<TrialForm>(() => formOf(profile.id) ?? DEFAULT_FORM);
  const [shown, setShown] = useState<string>();
  // A refusal that names an input is shown beside it, until the form changes; then in the status panel.
  const [dismissed, setDismissed] = useState<string>();
  const { view, streamError, lost, running, dropped } = useJobRun(trialRuns, run?.jobId, (ended) => {
    if (run !== undefined) keepRun(run, ended);
  });
  const keptRuns = useKeptRuns();
  const keptIndex = keptRuns.findIndex((k) => k.jobId === shown);
  const kept = keptRuns[keptIndex];
  // Progress replaces the view ten times a second; the results change once per variant.
  const { started, variants, sweep, report, outcome } = view;
  const live = useMemo(
    () => (run === undefined ? undefined : resultsOf(run.trial, { started, variants, sweep, report, outcome })),
    [run, started, variants, sweep, report, outcome],
  );
  const shownResults = useMemo(() => (kept === undefined ? undefined : reportResults(kept.report, kept.outcome)), [kept]);
  const refusal = view.error !== undefined && controlOf(view.error.field) !== undefined && run?.jobId !== dismissed ? view.error : undefined;

  return (
    <div className="page job-page trial-page" data-job-id={run?.jobId}>
      <div className="toolbar">
        <p className="page-intro">
          What round trips cost on this server: the same writes sent one at a time, pipelined, in transactions and over multiplexed connections, optionally
          through a proxy that adds network delay. Trials write only scratch keys and remove them, but they load the server while they run: use a test or idle
          one.
        </p>
      </div>
      <TrialControls
        profile={profile}
        form={form}
        onForm={(f) => {
          keepForm(profile.id, f);
          setForm(f);
        }}
        running={running}
        onStarted={(next) => {
          setCurrentRun(next);
          setRun(next);
          setShown(undefined);
        }}
        refusal={refusal}
        onDismissRefusal={() => setDismissed(run?.jobId)}
      />
      {run !== undefined &&
        (lost ? (
          <JobLost
            error={streamError}
            title={`Cannot follow trial ${run.jobId}:`}
            note="The server may have restarted since it began, or forgotten it among older runs."
          />
        ) : (
          <TrialStatus key={run.jobId} run={run} view={view} errorBeside={refusal !== undefined} />
        ))}
      <DroppedNote dropped={dropped} />
      {kept !== undefined && shownResults !== undefined ? (
        // Kept runs are numbered oldest first, as in their table.
        <TrialResults results={shownResults} title={`Results of kept run #${keptRuns.length - keptIndex}`} />
      ) : (
        live !== undefined && <TrialResults results={live} title="Results" />
      )}
      <KeptRunsPanel shown={kept?.jobId} onShow={setShown} />
    </div>
  );
}
