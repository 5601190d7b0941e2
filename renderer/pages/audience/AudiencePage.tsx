import { useMemo, useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { useCall } from '../../bridge/useCall';
import { DroppedNote } from '../../components/DroppedNote';
import { JobLost } from '../../components/JobLost';
import { WithProfile } from '../../components/WithProfile';
import { useJobRun } from '../../lib/useJobRun';
import { useSettled } from '../../lib/useSettled';
import { AudienceControls } from './AudienceControls';
import { DemoPanel } from './DemoPanel';
import { targetOf, withDiscoveredRange, type AudienceForm } from './form';
import { whenText } from './history';
import { HistoryPanel } from './HistoryPanel';
import { audienceRuns, currentRun, formOf, keepForm, setCurrentRun, type CurrentRun } from './pageSession';
import { ResultsView } from './ResultsView';
import { RunStatus } from './RunStatus';
import { reportResults, shownResults } from './shownResults';
import '../../components/jobPage.css';
import './audience.css';

const LAYOUT_SETTLE_MS = 500;

/**
 * Audience trials: build an audience from user attributes, get its per-day
 * activity, and time four storage/query strategies side by side on the real
 * server. One trial at a time per profile; the server keeps recent reports to compare.
 */
export function AudiencePage() {
  return (
    <WithProfile purpose="build audiences from its user attributes and time how each strategy answers" testId="aud-no-profile">
      {(profile) => <ProfileAudience profile={profile} />}
    </WithProfile>
  );
}

function ProfileAudience({ profile }: { profile: ProfileView }) {
  const [stored, setStored] = useState<AudienceForm>(() => formOf(profile.id));
  const [run, setRun] = useState<CurrentRun | undefined>(() => currentRun(profile.id));
  const [shown, setShown] = useState<string>();
  // Typing in the key layout re-scans the attributes once typing pauses, not per keystroke.
  const layout = useSettled(stored.layout, LAYOUT_SETTLE_MS);
  const db = targetOf(profile, { db: stored.db, layout });
  const attributes = useCall('audience.attributes', { profileId: profile.id, ...db });
  const history = useCall('audience.history', { profileId: profile.id });
  const { view, streamError, lost, running, dropped } = useJobRun(audienceRuns, run?.jobId, history.refresh);
  // Untouched dates follow the days the server has (a demo load can change them).
  const form = withDiscoveredRange(stored, attributes.data?.days);
  const { started, results, report, outcome } = view;
  const live = useMemo(() => shownResults({ started, results, report, outcome }), [started, results, report, outcome]);
  const saved = history.data?.reports.find((r) => r.id === shown);
  const savedResults = useMemo(() => (saved === undefined ? undefined : reportResults(saved, 'done')), [saved]);

  return (
    <div className="page job-page aud-page" data-job-id={run?.jobId}>
      <div className="toolbar">
        <p className="page-intro">
          Pick an audience by user attributes and count how many of it were active on each day, answered four ways: bitmaps in one Lua script, bitmaps
          pipelined, sets, and per-user zsets. Every run checks that all strategies agree.
        </p>
      </div>
      <DemoPanel
        profile={profile}
        db={db}
        dbText={stored.db}
        onDb={(text) => {
          const next = { ...stored, db: text };
          keepForm(profile.id, next);
          setStored(next);
        }}
        onLoaded={attributes.refresh}
      />
      <AudienceControls
        profile={profile}
        form={form}
        onForm={(f) => {
          keepForm(profile.id, f);
          setStored(f);
        }}
        attributes={attributes}
        running={running}
        onStarted={(r) => {
          setCurrentRun(r);
          setRun(r);
          setShown(undefined);
        }}
      />
      {run !== undefined &&
        (lost ? (
          <JobLost
            error={streamError}
            title={`Cannot follow trial ${run.jobId}:`}
            note="The server may have restarted since it began; its saved runs are listed below."
          />
        ) : (
          <RunStatus key={run.jobId} run={run} view={view} />
        ))}
      <DroppedNote dropped={dropped} />
      {saved !== undefined && savedResults !== undefined ? (
        <ResultsView results={savedResults} title={`Results of the saved run of ${whenText(saved.finishedAt)} UTC`} />
      ) : (
        live !== undefined && <ResultsView results={live} title="Results" />
      )}
      <HistoryPanel reports={history.data?.reports} error={history.error} shown={saved?.id} onShow={setShown} />
    </div>
  );
}
