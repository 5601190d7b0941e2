import { useCallback, useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { DroppedNote } from '../../components/DroppedNote';
import { JobLost } from '../../components/JobLost';
import { WithProfile } from '../../components/WithProfile';
import { useJobRun } from '../../lib/useJobRun';
import { DEFAULT_FORM, type RunForm } from './form';
import { ReportView } from './ReportView';
import { RunControls } from './RunControls';
import { readRun, samplingRuns, writeRun, type KeptRun } from './runStore';
import { RunStatus } from './RunStatus';
import '../../components/jobPage.css';
import './sampling.css';

/** The run controls as last typed, per profile, for as long as the page's code is loaded. */
const forms = new Map<string, RunForm>();

/**
 * Key sampling: what the keyspace of one DB is made of. A sample (RANDOMKEY) or a
 * census (SCAN) runs on the server; the page follows it and draws the report as it
 * fills in. The last run per profile is kept for the tab, so leaving the page and
 * coming back (or switching profiles) shows it again.
 */
export function SamplingPage() {
  return (
    <WithProfile purpose="see what its keyspace is made of" testId="sampling-no-profile">
      {(profile) => <ProfileSampling profile={profile} />}
    </WithProfile>
  );
}

function ProfileSampling({ profile }: { profile: ProfileView }) {
  const [run, setRun] = useState<KeptRun | undefined>(() => readRun(profile.id));
  const [form, setForm] = useState<RunForm>(() => forms.get(profile.id) ?? DEFAULT_FORM);
  const { view, streamError, lost, running, dropped } = useJobRun(samplingRuns, run?.jobId);
  const changeForm = useCallback(
    (f: RunForm) => {
      forms.set(profile.id, f);
      setForm(f);
    },
    [profile.id],
  );
  // Stable while the form is: the report is memoised against progress re-renders.
  const onCensus = useCallback(() => changeForm({ ...form, method: 'census' }), [changeForm, form]);

  return (
    <div className="page job-page smp-page" data-job-id={run?.jobId}>
      <div className="toolbar">
        <p className="page-intro">
          What the keyspace is made of: types, encodings, sizes, TTLs, the biggest keys and the common prefixes. A sample is quick on any DB size; a census
          walks every key with SCAN.
        </p>
      </div>
      <RunControls
        profile={profile}
        form={form}
        onForm={changeForm}
        running={running}
        onStarted={(started) => {
          writeRun(profile.id, started);
          setRun(started);
        }}
      />
      {run !== undefined && (
        <>
          {lost ? (
            <JobLost
              error={streamError}
              title={`Cannot follow run ${run.jobId}:`}
              note="The server may have restarted since it began, or forgotten it among older runs; its report is gone with it."
            />
          ) : (
            <RunStatus key={run.jobId} run={run} view={view} />
          )}
          <DroppedNote dropped={dropped} />
          {view.report !== undefined && view.outcome !== 'failed' && (view.outcome !== undefined || view.report.keysExamined > 0) && (
            <ReportView report={view.report} profileId={run.profileId} profileName={run.profileName} state={view.outcome ?? 'running'} onCensus={onCensus} />
          )}
        </>
      )}
    </div>
  );
}
