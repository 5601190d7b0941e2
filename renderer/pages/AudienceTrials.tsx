import { useMemo, useState } from 'react';
import type { ProfileView } from '../../app/schemas/connections';
import { useCall } from '../bridge/useCall';
import { ErrorAlert } from '../components/ErrorAlert';
import { NoProfile } from '../components/NoProfile';
import { useProfiles } from '../profiles/ProfilesContext';
import { AudienceControls } from './audience/AudienceControls';
import { DemoPanel } from './audience/DemoPanel';
import { dbInput, DEFAULT_FORM, withDiscoveredRange, type AudienceForm } from './audience/form';
import { whenText } from './audience/history';
import { HistoryPanel } from './audience/HistoryPanel';
import { currentRun, formOf, keepForm, setCurrentRun, type CurrentRun } from './audience/pageSession';
import { ResultsView } from './audience/ResultsView';
import { RunStatus } from './audience/RunStatus';
import { reportResults, shownResults } from './audience/shownResults';
import { useAudienceRun } from './audience/useAudienceRun';
import './audience/audience.css';
import './trials/trials.css';

/**
 * Audience trials: build an audience from user attributes, get its per-day
 * activity, and time four storage/query strategies side by side on the real
 * server. One trial at a time per profile; the server keeps recent reports to compare.
 */
export function AudienceTrialsPage() {
  const { profiles, selected, loading, error } = useProfiles();
  if (selected === undefined) {
    return (
      <NoProfile
        loading={loading && profiles.length === 0}
        error={error}
        purpose="build audiences from its user attributes and time how each strategy answers"
        testId="aud-no-profile"
      />
    );
  }
  return <ProfileAudience key={selected.id} profile={selected} />;
}

function ProfileAudience({ profile }: { profile: ProfileView }) {
  const [stored, setStored] = useState<AudienceForm>(() => formOf(profile.id) ?? DEFAULT_FORM);
  const [run, setRun] = useState<CurrentRun | undefined>(() => currentRun(profile.id));
  const [shown, setShown] = useState<string>();
  const db = dbInput(stored);
  const attributes = useCall('audience.attributes', { profileId: profile.id, ...db });
  const history = useCall('audience.history', { profileId: profile.id });
  const { view, streamError, dropped } = useAudienceRun(run, history.refresh);
  // Untouched dates follow the days the server has (a demo load can change them).
  const form = withDiscoveredRange(stored, attributes.data?.days);
  const lost = streamError !== undefined && streamError.code !== 'DISCONNECTED' && view.outcome === undefined;
  const { started, results, report, outcome } = view;
  const live = useMemo(() => shownResults({ started, results, report, outcome }), [started, results, report, outcome]);
  const saved = history.data?.reports.find((r) => r.id === shown);
  const savedResults = useMemo(() => (saved === undefined ? undefined : reportResults(saved, 'done')), [saved]);

  return (
    <div className="page trial-page aud-page" data-job-id={run?.jobId}>
      <div className="toolbar">
        <p className="page-intro">
          Pick an audience by user attributes and count how many of it were active on each day, answered four ways: bitmaps in
          one Lua script, bitmaps pipelined, sets, and per-user zsets. Every run checks that all strategies agree.
        </p>
      </div>
      <DemoPanel profile={profile} db={db} onLoaded={attributes.refresh} />
      <AudienceControls
        profile={profile}
        form={form}
        onForm={(f) => {
          keepForm(profile.id, f);
          setStored(f);
        }}
        attributes={attributes}
        running={run !== undefined && view.outcome === undefined && !lost}
        onStarted={(r) => {
          setCurrentRun(r);
          setRun(r);
          setShown(undefined);
        }}
      />
      {run !== undefined &&
        (lost ? (
          <div className="panel error-state">
            <ErrorAlert error={streamError} title={`Cannot follow trial ${run.jobId}:`} />
            <p className="muted">The server may have restarted since it began; its saved runs are listed below.</p>
          </div>
        ) : (
          <RunStatus key={run.jobId} run={run} view={view} />
        ))}
      {dropped > 0 && <p className="hint">{`${dropped} progress update${dropped === 1 ? ' was' : 's were'} dropped while the page was busy.`}</p>}
      {saved !== undefined && savedResults !== undefined ? (
        <ResultsView results={savedResults} title={`Results of the saved run of ${whenText(saved.finishedAt)} UTC`} />
      ) : (
        live !== undefined && <ResultsView results={live} title="Results" />
      )}
      <HistoryPanel reports={history.data?.reports} error={history.error} shown={saved?.id} onShow={setShown} />
    </div>
  );
}
