import { useLinkStatus } from '../bridge/BridgeContext';
import { clock } from '../lib/display';

/**
 * Shown while the link to the Node side is down; hooks recover on their own when it
 * returns. Once a link that was open is lost, everything a page shows is the last state
 * heard: the banner says when, and pages mark their live figures "as of" that time.
 */
export function ConnectionBanner() {
  const link = useLinkStatus();
  if (link.state !== 'reconnecting') return null;
  const asOf = link.lastHeardAt ?? link.lostAt;
  return (
    <div className="banner banner-warn banner-lost" role="status" data-testid="connection-banner" data-lost-at={link.lostAt ?? ''}>
      <span>
        {link.lostAt === undefined ? (
          <strong>Cannot reach the Cacheboard server, retrying…</strong>
        ) : (
          <>
            <strong>Lost the connection to the Cacheboard server at {clock(link.lostAt)}.</strong>{' '}
            <span>Nothing on this page is live: it shows the last state heard{asOf === undefined ? '' : `, as of ${clock(asOf)}`}. Reconnecting…</span>
          </>
        )}
        {link.reason !== undefined && <span className="banner-detail"> {link.reason}</span>}
        {link.attempt > 1 && <span className="banner-detail"> (attempt {link.attempt})</span>}
      </span>
      <button type="button" className="btn btn-small" onClick={link.retryNow}>
        Retry now
      </button>
    </div>
  );
}
