import { useState } from 'react';
import type { ProfileView } from '../../app/schemas/connections';
import { ErrorAlert } from '../components/ErrorAlert';
import { NoProfile } from '../components/NoProfile';
import { useProfiles } from '../profiles/ProfilesContext';
import { DEFAULT_FORM, type RunForm } from './sampling/form';
import { ReportView } from './sampling/ReportView';
import { RunControls } from './sampling/RunControls';
import { readRun, writeRun, type KeptRun } from './sampling/runStore';
import { RunStatus } from './sampling/RunStatus';
import { useRun } from './sampling/useRun';
import './sampling/sampling.css';

/** The run controls as last typed, per profile, for as long as the page's code is loaded. */
const forms = new Map<string, RunForm>();

/**
 * Key sampling: what the keyspace of one DB is made of. A sample (RANDOMKEY) or a
 * census (SCAN) runs on the server; the page follows it and draws the report as it
 * fills in. The last run per profile is kept for the tab, so leaving the page and
 * coming back (or switching profiles) shows it again.
 */
export function SamplingPage() {
  const { profiles, selected, loading, error } = useProfiles();
  if (selected === undefined) {
    return (
      <NoProfile
        loading={loading && profiles.length === 0}
        error={error}
        purpose="see what its keyspace is made of"
        testId="sampling-no-profile"
      />
    );
  }
  return <ProfileSampling key={selected.id} profile={selected} />;
}

function ProfileSampling({ profile }: { profile: ProfileView }) {
  const [run, setRun] = useState<KeptRun | undefined>(() => readRun(profile.id));
  const [form, setForm] = useState<RunForm>(() => forms.get(profile.id) ?? DEFAULT_FORM);
  const { view, streamError, dropped } = useRun(run);
  const lost = streamError !== undefined && streamError.code !== 'DISCONNECTED' && view.outcome === undefined;

  return (
    <div className="page smp-page" data-job-id={run?.jobId}>
      <div className="toolbar">
        <p className="page-intro">
          What the keyspace is made of: types, encodings, sizes, TTLs, the biggest keys and the common prefixes. A
          sample is quick on any DB size; a census walks every key with SCAN.
        </p>
      </div>
      <RunControls
        profile={profile}
        form={form}
        onForm={(f) => {
          forms.set(profile.id, f);
          setForm(f);
        }}
        running={run !== undefined && view.outcome === undefined && !lost}
        onStarted={(started) => {
          writeRun(profile.id, started);
          setRun(started);
        }}
      />
      {run !== undefined && (
        <>
          {lost ? (
            <div className="panel error-state">
              <ErrorAlert error={streamError} title={`Cannot follow run ${run.jobId}:`} />
              <p className="muted">
                The server may have restarted since it began, or forgotten it among older runs; its report is gone with it.
              </p>
            </div>
          ) : (
            <RunStatus key={run.jobId} run={run} view={view} />
          )}
          {dropped > 0 && <p className="hint">{formatDropped(dropped)}</p>}
          {view.report !== undefined && view.outcome !== 'failed' && (view.outcome !== undefined || view.report.keysExamined > 0) && (
            <ReportView report={view.report} profileName={run.profileName} state={view.outcome ?? 'running'} />
          )}
        </>
      )}
    </div>
  );
}

function formatDropped(n: number): string {
  return `${n} progress update${n === 1 ? ' was' : 's were'} dropped while the page was busy.`;
}
