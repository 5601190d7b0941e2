import { pageNodes } from '../../core/pool/profileNodes';
import type { Handlers } from '../handlers';
import { MonitorAudit } from './monitorAudit';
import type { CoreServices } from './services';

type MonitorHandlers = Pick<Handlers, 'monitor.nodes' | 'monitor.watch'>;

/**
 * Batches already queued for delivery beyond which a tick's lines are dropped
 * (and counted) instead: the queue then never drops a batch, whose lines the
 * viewer could not count.
 */
const MAX_BACKLOG = 4;

export function monitorHandlers({ metrics, pool, monitor, audit }: CoreServices): MonitorHandlers {
  const views = new MonitorAudit(audit);
  // The nodes MONITOR may watch: a cluster's as CLUSTER NODES lists them, else the Overview's discovery.
  const nodes = pageNodes(pool, metrics, 'listed');
  return {
    'monitor.nodes': async ({ profileId }) => ({ nodes: await nodes.nodes(profileId) }),

    'monitor.watch': async ({ profileId, address, filter }, sink, { session }) => {
      // MONITOR shows values: who watched which nodes with which filter, and for how long, is on the
      // record, before the first line is read (a log that cannot record it refuses the watch).
      const close = views.open(session, profileId, address ?? `profile ${profileId}`, filter);
      const stop = await monitor
        .watch(profileId, address, filter, {
          lines: (b) => sink.push({ kind: 'lines', ...b }),
          stats: ({ omem, ...s }) => sink.push({ kind: 'stats', ...s, ...(omem === undefined ? {} : { omem }) }),
          state: (state, message) => sink.push({ kind: 'state', state, ...(message === undefined ? {} : { message }) }),
          gap: (from, to, reason) => sink.push({ kind: 'gap', from, to, reason }),
          end: (err, message) => {
            if (message !== undefined) sink.push({ kind: 'ended', message });
            sink.end(err);
          },
          congested: () => sink.backlog >= MAX_BACKLOG,
        })
        .catch((e: unknown) => {
          close();
          throw e;
        });
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        stop();
        close();
      };
    },
  };
}
