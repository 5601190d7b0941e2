import { useState } from 'react';
import { LeftoversNotice } from './LeftoversNotice';
import { LoadJob } from './LoadJob';
import { EMPTY_DRAFT, LoadSetup, type SetupDraft } from './LoadSetup';
import { readJob, writeJob, type KeptJob } from './jobStore';

/** The draft to go back to, pointing at this load's refusal only (never at an older one it still carries). */
function pointingAt(draft: SetupDraft, refusal: SetupDraft['pointAt']): SetupDraft {
  const next: SetupDraft = { ...draft };
  delete next.pointAt;
  return refusal === undefined ? next : { ...next, pointAt: refusal };
}

/**
 * Bulk load: pick a file, map it, preview, choose target and mode, then follow
 * the load to its report. The job id is kept for the tab, so leaving the page
 * mid-load and coming back picks the same load up again.
 */
export function BulkPage() {
  const [job, setJob] = useState<KeptJob | undefined>(() => readJob());
  // The settings of the last start, for "Change settings and load again"; gone after a reload.
  const [draft, setDraft] = useState<SetupDraft>();
  const [setupKey, setSetupKey] = useState(0);
  const [follow, setFollow] = useState(0);

  function leave(keep: SetupDraft | undefined) {
    writeJob(undefined);
    setJob(undefined);
    setDraft(keep);
    setSetupKey((k) => k + 1);
  }

  return (
    <div className="page bulk-page">
      {job === undefined ? (
        <>
          <div className="toolbar">
            <p className="page-intro">
              Load a file of commands or records into a DB as fast as the server takes them. Swap mode stages, verifies, then switches it live with SWAPDB.
            </p>
          </div>
          <LeftoversNotice />
          <LoadSetup
            key={setupKey}
            initial={draft ?? EMPTY_DRAFT}
            onStarted={(started, used) => {
              writeJob(started);
              setDraft(used);
              setJob(started);
            }}
          />
        </>
      ) : (
        <LoadJob
          key={`${job.jobId}:${follow}`}
          job={job}
          onRefollow={() => setFollow((n) => n + 1)}
          onAnother={() => leave(undefined)}
          onAdjust={draft === undefined ? undefined : (refusal) => leave(pointingAt(draft, refusal))}
        />
      )}
    </div>
  );
}
