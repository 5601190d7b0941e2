import type { CallArgs } from '../../../../app/contract';
import type { Role } from '../../../../app/define';
import { AppError } from '../../../../app/errors';
import type { CommandDoc, NodeReply, RunResult } from '../../../../app/schemas/console';
import { readOnlyDataWhy } from '../../pool/readOnlyProfile';
import { requireDbZero, topologyKind } from '../../pool/topology';
import type { PoolApi, StoredProfile } from '../../pool/types';
import { isAnalystRead, maskedForAnalyst } from '../catalog/analystReads';
import { findCommand, heldFor, isBlocking, isCheapRead, isRead, requestPolicy } from '../catalog/commandPolicy';
import { holdsRedacted, REDACTED, redactArgs } from '../redact';
import { poolClient, type CatalogCache } from './catalogCache';
import { auditConsole, errorCode, type ConsoleAuditSink, type ConsoleWhere } from './consoleAudit';
import { commandKeys, crossSlotHint } from './consoleKeys';
import type { ConsoleRuns } from './consoleRuns';
import type { ConsoleServices } from './consoleServices';
import type { ConsoleTopology } from './consoleTopology';
import type { ParsedLine } from './parseLine';
import { execOn, unanswered, type ExecContext, type HopResult } from './execute';
import { refusal, refuseElsewhere } from './guard';
import { replyTotal } from './replyTotal';
import { route, type Hop } from './route';

export interface RunDeps {
  pool: PoolApi;
  console: ConsoleServices;
  catalogs: CatalogCache;
  topology: ConsoleTopology;
  runs: ConsoleRuns;
}

/** Who runs the line: the session's user and role, and the profile as that role reaches it. */
export interface RunSession {
  user: string;
  role: Role;
  connectionId: string;
  profile: StoredProfile;
  /** Aborted when the page goes away. */
  signal: AbortSignal;
  audit: ConsoleAuditSink;
}

/** Names of our console connections in CLIENT LIST (CLIENT SETNAME takes printable ASCII only). */
function linkName(profileId: string): string {
  return `cacheboard:console:${profileId.replace(/[^!-~]/g, '_')}`.slice(0, 100);
}

/**
 * console.run: one typed line, parsed as redis-cli parses it, checked against the server's
 * own COMMAND INFO (the guard, the analyst's @read and no-@dangerous rule, a read-only
 * profile), routed to its node(s), run under its timeout and cancel, audited when an ops user
 * runs what is not @read or what the guard held, and when an analyst runs anything but a
 * @fast read, and kept redacted in the user's history: every line that was not held (a held one
 * comes back typed-back, and is kept then).
 */
export async function runLine(deps: RunDeps, input: CallArgs<'console.run'>, parsed: ParsedLine, s: RunSession): Promise<RunResult> {
  if (holdsRedacted(parsed.text)) {
    // A line recalled from the history: run as it is, it would make the mark the password.
    throw new AppError(
      'VALIDATION',
      `This line holds ${REDACTED} where a secret goes (a line from the history keeps none): type the secret in its place.`,
      'line',
    );
  }
  // The line as typed when it holds no secret (its quoting, and bytes the re-quoted text could not
  // carry: an argument that is not UTF-8 is U+FFFD in parsed.text); else redactArgs' re-quoted line.
  const redacted = redactArgs(parsed.text);
  const line = redacted.redacted ? redacted.line : input.line.trim();
  const remember = (): void => deps.console.history.add(s.user, input.profileId, line);
  const result = await runParsed(deps, input, parsed, line, s).catch((err: unknown) => {
    remember();
    throw err;
  });
  if (result.status === 'done') remember();
  return result;
}

async function runParsed(deps: RunDeps, input: CallArgs<'console.run'>, parsed: ParsedLine, line: string, s: RunSession): Promise<RunResult> {
  const { profile, connectionId } = s;
  const kind = topologyKind(profile.spec);
  const db = input.db ?? profile.spec.db;
  if (kind === 'cluster') requireDbZero(db);
  refuseElsewhere(parsed.text[0] ?? '');

  const catalog = await deps.catalogs.get(connectionId);
  const doc = findCommand(catalog, parsed.text);
  const command = doc?.name ?? (parsed.text[0] ?? '').toUpperCase();
  let keys: Promise<Buffer[]> | undefined;
  const keysOf = (): Promise<Buffer[]> => (keys ??= commandKeys(doc, parsed.args, () => poolClient(deps.pool, connectionId)));
  const where: ConsoleWhere = { profileId: input.profileId, db };

  const readOnlyData = readOnlyDataWhy(profile, { refused: 'commands that write are refused', instead: 'change data' });
  const refused = refusal(doc, command, s.role, readOnlyData);
  if (refused !== undefined) {
    auditConsole(
      s.audit,
      where,
      'refused',
      command,
      await keysOf(),
      refused.code === 'FORBIDDEN' ? `${isRead(doc) ? '@dangerous' : 'not @read'}, refused for an analyst` : 'a write on a read-only profile',
    );
    throw refused;
  }
  const hops = await route({
    kind,
    spec: profile.spec,
    nodes: await deps.topology.nodes(connectionId),
    target: input.target,
    keys: keysOf,
    everyShard: requestPolicy(doc) !== undefined,
    sentinelMaster: async () => {
      const [master] = await deps.pool.masters(connectionId);
      if (master === undefined) throw new AppError('UNREACHABLE', 'The sentinels name no master now');
      return master.address;
    },
  });

  const control = deps.runs.start(s.user, input.consoleId, input.runId, input.timeoutMs, s.signal);
  const ctx: ExecContext = {
    owner: { user: s.user, consoleId: input.consoleId },
    connectionId,
    protocol: input.protocol,
    db,
    reply: { files: deps.console.files, owner: s.user, raw: input.raw },
    signal: control.signal,
    links: deps.console.links,
    blocking: isBlocking(doc),
    name: linkName(input.profileId),
    followRedirects: kind === 'cluster' && input.target.kind !== 'node',
    profileSpec: profile.spec,
    onRedirect: () => deps.topology.forget(connectionId),
  };
  // On the audit log: an ops user's run that is not a read, an analyst's that is not a cheap
  // read (the server feels it), and a run the guard held (typed back, or confirmed up front).
  let audited = s.role === 'ops' ? !isRead(doc) : !isCheapRead(doc);
  where.addresses = hops.map((h) => h.address);
  try {
    // An analyst's admin read (CONFIG GET) is what a page shows them without asking: not held for a typed-back name.
    const shownOnAPage = s.role === 'analyst' && isAnalystRead(command);
    const held = shownOnAPage ? undefined : heldFor(doc, parsed.text, command === 'KEYS' ? { dbSize: await largestDb(hops, ctx) } : {});
    if (held !== undefined) audited = true;
    if (held !== undefined && input.confirm?.trim().toUpperCase() !== held.confirmWith.toUpperCase()) {
      auditConsole(s.audit, where, 'refused', command, await keysOf(), `held (${held.reason}) until typed back`);
      return { status: 'held', line, command, reason: held.reason, why: held.why, confirmWith: held.confirmWith };
    }
    // The write-ahead record: a command the log cannot take first is refused (AUDIT_UNAVAILABLE), never run unrecorded.
    if (audited) auditConsole(s.audit, where, 'started', command, await keysOf());
    const results = await Promise.all(
      hops.map((h) =>
        hops.length === 1
          ? execOn(h, parsed.args, parsed.text, ctx)
          : execOn(h, parsed.args, parsed.text, ctx).catch((err: unknown) => unanswered(h, err, ctx)),
      ),
    );
    // A secret parameter's value (the profile's own password) was masked as the reply was read (reply/secretMask.ts).
    // An analyst's admin read (SLOWLOG GET) is masked as the page that shows it masks it (catalog/analystReads.ts).
    const replies = await Promise.all(
      results.map(async (r) => {
        const reply = await withHint(r, profile.spec.username, doc, keysOf);
        return s.role === 'analyst' ? maskedForAnalyst(command, reply) : reply;
      }),
    );
    // Where it ran in the end (a MOVED may have sent it on).
    where.addresses = results.map((r) => r.node.address);
    if (audited) {
      const failed = replies.find((r) => r.reply.t === 'error');
      auditConsole(
        s.audit,
        where,
        failed === undefined ? 'ok' : 'failed',
        command,
        await keysOf(),
        failed?.reply.t === 'error' ? `error reply ${errorCode(failed.reply.v)}` : undefined,
      );
    }
    const first = results[0] as HopResult;
    // The console's DB is the one connection's it ran on (SELECT moved it); several nodes stay on the run's.
    const total = replyTotal(doc, replies);
    return {
      status: 'done',
      line,
      command,
      replies,
      db: results.length === 1 && !ctx.blocking ? first.db : db,
      protocol: first.protocol,
      ...(total === undefined ? {} : { total }),
    };
  } catch (err) {
    const stopped = control.stopped;
    const error = stopped === undefined ? err : control.stopError(command);
    if (audited)
      auditConsole(s.audit, where, stopped === 'cancelled' ? 'cancelled' : 'failed', command, await keysOf(), error instanceof AppError ? error.code : 'error');
    throw error;
  } finally {
    control.done();
  }
}

/** DBSIZE of the node(s) KEYS would run on, on the console's own connections (its DB): the guard holds KEYS on a big one. */
async function largestDb(hops: readonly Hop[], ctx: ExecContext): Promise<number> {
  const sizes = await Promise.all(
    hops.map(async (h) => {
      const r = await execOn(h, [Buffer.from('DBSIZE')], ['DBSIZE'], { ...ctx, blocking: false });
      return r.node.reply.t === 'integer' ? Number(r.node.reply.v) : 0;
    }),
  );
  return Math.max(0, ...sizes);
}

/** The words an error reply gets: CROSSSLOT's slots and hash tag, NOPERM's ACL user. */
async function withHint(r: HopResult, username: string | undefined, doc: CommandDoc | undefined, keys: () => Promise<Buffer[]>): Promise<NodeReply> {
  const reply = r.node.reply;
  if (reply.t !== 'error') return r.node;
  if (reply.v.startsWith('CROSSSLOT')) return { ...r.node, hint: crossSlotHint(await keys()) };
  if (reply.v.startsWith('NOPERM')) {
    return {
      ...r.node,
      hint: `Redis refused it for the ACL user "${username ?? 'default'}" this session connects as${doc === undefined ? '' : ` (${doc.name} is in ${(doc.categories ?? []).join(' ') || 'no category'})`}.`,
    };
  }
  return r.node;
}
