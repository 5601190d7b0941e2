import { useLinkStatus } from '../bridge/BridgeContext';

/** Shown while the link to the Node side is down; hooks recover on their own when it returns. */
export function ConnectionBanner() {
  const link = useLinkStatus();
  if (link.state !== 'reconnecting') return null;
  return (
    <div className="banner banner-warn" role="status" data-testid="connection-banner">
      <span>
        <strong>Disconnected from the server, reconnecting…</strong>
        {link.reason !== undefined && <span className="banner-detail"> {link.reason}</span>}
        {link.attempt > 1 && <span className="banner-detail"> (attempt {link.attempt})</span>}
      </span>
      <button type="button" className="btn btn-small" onClick={link.retryNow}>
        Retry now
      </button>
    </div>
  );
}
