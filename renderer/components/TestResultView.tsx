import type { AppError } from '../../app/errors';
import type { TestResult } from '../../app/schemas/connections';
import { formatLatency } from '../lib/format';
import { serverTitle } from '../../app/redis/serverTitle';
import { plural } from '../lib/plural';

export interface TestOutcome {
  pending: boolean;
  result?: TestResult;
  /** The call itself failed (validation, transport), as opposed to a failed PING. */
  error?: AppError;
}

/** What `connections.test` said: latency, version, role and mode (a sentinel's master, a cluster's state and masters), or why it failed. */
export function TestResultView({ outcome }: { outcome: TestOutcome | undefined }) {
  if (outcome === undefined) return null;
  const { pending, result, error } = outcome;
  if (pending) {
    return (
      <div className="test-result" data-testid="test-result" role="status" data-state="pending">
        Testing…
      </div>
    );
  }
  if (result?.ok) {
    const parts = [
      result.latencyMs !== undefined ? formatLatency(result.latencyMs) : undefined,
      result.serverVersion !== undefined ? serverTitle(result.serverName, result.serverVersion) : undefined,
      result.role,
      result.mode,
      result.master !== undefined ? `master ${result.master}` : undefined,
      result.clusterState !== undefined ? `cluster_state:${result.clusterState}` : undefined,
      result.masters !== undefined ? `${plural(result.masters.length, 'master')}: ${result.masters.join(', ')}` : undefined,
    ].filter((p): p is string => p !== undefined);
    return (
      <div className="test-result test-ok" data-testid="test-result" role="status" data-state="ok">
        <strong>Connected</strong>
        {parts.map((p) => (
          <span key={p} className="test-part">
            {p}
          </span>
        ))}
      </div>
    );
  }
  const failure = result?.error ?? error;
  return (
    <div className="test-result test-fail" data-testid="test-result" role="status" data-state="failed">
      <strong>Failed</strong>
      <span className="test-part">{failure?.message ?? 'the server gave no reason'}</span>
      {failure !== undefined && <span className="alert-code">{failure.code}</span>}
    </div>
  );
}
