import { CatalogCache } from '../../core/console/run/catalogCache';
import { ConsoleRuns } from '../../core/console/run/consoleRuns';
import { ConsoleTopology } from '../../core/console/run/consoleTopology';
import { parseLine } from '../../core/console/run/parseLine';
import { runLine } from '../../core/console/run/runLine';
import { downloadReply } from '../../core/console/reply/downloadReply';
import type { Handlers } from '../handlers';
import { userKey } from '../session';
import { auditTrail } from './auditTrail';
import type { CoreServices } from './services';
import { roleOf, sessionProfile } from './sessionProfile';
import { streamDownload } from './streamDownload';

type ConsoleHandlers = Pick<Handlers, 'console.catalog' | 'console.targets' | 'console.run' | 'console.cancel' | 'console.history' | 'console.download'>;

/**
 * The Console page's calls. Every one reaches the profile as the session's connection (an
 * analyst's carries the profile's analyst Redis user); the catalog and the node list are kept
 * per connection id for a while, the connections per user and console (core.console.links).
 */
export function consoleHandlers(core: Pick<CoreServices, 'profiles' | 'pool' | 'audit' | 'console'>): ConsoleHandlers {
  const { profiles, pool, audit } = core;
  const consoles = core.console;
  const catalogs = new CatalogCache(pool);
  const topology = new ConsoleTopology(pool);
  const runs = new ConsoleRuns();
  return {
    'console.catalog': async ({ profileId }, { session }) => catalogs.get(sessionProfile(profiles, profileId, session).connectionId),
    'console.targets': async ({ profileId }, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      return topology.targets(connectionId, profile.spec);
    },
    'console.run': async (input, { session, signal }) => {
      const { connectionId, profile } = sessionProfile(profiles, input.profileId, session);
      return runLine({ pool, console: consoles, catalogs, topology, runs }, input, parseLine(input.line), {
        user: userKey(session),
        role: roleOf(session),
        connectionId,
        profile,
        signal,
        audit: auditTrail(audit, session, 'console'),
      });
    },
    'console.cancel': ({ consoleId, runId }, { session }) => ({ cancelled: runs.cancel(userKey(session), consoleId, runId) }),
    'console.history': ({ profileId }, { session }) => {
      sessionProfile(profiles, profileId, session);
      return { lines: consoles.history.list(userKey(session), profileId) };
    },
    'console.download': ({ downloadId }, sink, { session }) => {
      return streamDownload(sink, downloadReply(consoles.files, downloadId, userKey(session), sink));
    },
  };
}
