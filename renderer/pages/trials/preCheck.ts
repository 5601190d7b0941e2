import type { ServerFacts } from '../../lib/useServerFacts';
import { formatCount } from '../../lib/format';
import type { TrialForm } from './form';

/** The DBs a run of the form uses (multiplex: DBs from the first on), or undefined while one is not a number yet. */
export function trialDbs(f: TrialForm, profileDb: number): number[] | undefined {
  const first = f.db.trim() === '' ? profileDb : /^\d+$/.test(f.db.trim()) ? Number(f.db.trim()) : undefined;
  if (first === undefined) return undefined;
  if (f.trial !== 'multiplex') return [first];
  const count = f.inputs.multiplex.dbs.trim() === '' ? 5 : Number(f.inputs.multiplex.dbs.trim());
  if (!Number.isInteger(count) || count < 1 || count > 64) return undefined;
  return Array.from({ length: count }, (_, i) => first + i);
}

/** What the page can refuse before Start, as the server would after it. */
export interface PreCheck {
  /** Why Start is disabled: said beside it. */
  blocked: string | undefined;
  /** Said beside the "run even if the DB holds keys" box while it is unticked. */
  confirmNote: string | undefined;
}

/**
 * A replica, or DBs holding keys of their own while the box is unticked: refused by the
 * server at its preflight, so said here first. Without facts (a cluster, a read error)
 * nothing is said and the server judges.
 */
export function preCheck(f: TrialForm, profileDb: number, facts: ServerFacts | undefined): PreCheck {
  if (facts === undefined) return { blocked: undefined, confirmNote: undefined };
  if (facts.replica) return { blocked: 'A replica takes no writes: pick the profile of its master.', confirmNote: undefined };
  const dbs = trialDbs(f, profileDb) ?? [];
  const held = dbs.map((db) => ({ db, keys: facts.keysIn(db) })).filter((d) => d.keys > 0);
  if (held.length === 0 || f.confirmNonEmpty) return { blocked: undefined, confirmNote: undefined };
  const where = held.map((d) => `db${d.db} holds ${formatCount(d.keys)} key${d.keys === 1 ? '' : 's'}`).join(', ');
  return {
    blocked: 'Tick “Run even if the DB holds keys of its own” or pick an empty DB to start.',
    confirmNote: `${where} of its own. A trial writes and removes only its scratch keys, but it loads the server while it runs: tick this to run there anyway, or pick an empty DB.`,
  };
}
