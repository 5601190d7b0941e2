import { AppError } from '../../../app/errors';
import { otherNamed } from '../redis/clientList';
import { readRefusal } from '../redis/refusal';
import type { LayoutKind } from '../../../app/schemas/audience';
import { int, type AudienceLink } from './audienceLink';
import type { Term } from './expression';
import { formatExpr } from './expression';
import { globEscape, type LayoutKeys, type MembershipKind } from './layoutKeys';
import type { Plan } from './plan';
import { ReplyError } from '../resp/replyReader';
import { SCRATCH_KEY, type Scratch } from './scratch';
import { probeUserDays } from './userDaysProbe';

/** What the server holds for one query: per layout, why it cannot serve (absent: it can). */
export interface LayoutFacts {
  missing: Partial<Record<LayoutKind, string>>;
  warnings: string[];
}

const KINDS: MembershipKind[] = ['bitmap', 'set'];
const termText = (t: Term) => formatExpr(t);

/**
 * Checks in two round trips which layouts hold the query's keys. A term no layout has is an
 * unknown attribute (refused, named); a layout holding some terms but not others counts the
 * missing ones as empty (Redis treats a missing key as an empty set or bitmap), with a warning.
 */
export async function inspectLayouts(link: AudienceLink, keys: LayoutKeys, terms: Term[], days: readonly string[], plan: Plan): Promise<LayoutFacts> {
  const cmds: string[][] = [];
  for (const t of terms) for (const k of KINDS) cmds.push(['EXISTS', keys.attr(k, t)]);
  for (const k of KINDS) cmds.push(['EXISTS', ...days.map((d) => keys.active(k, d))]);
  for (const k of KINDS) cmds.push(['EXISTS', keys.all(k)]);
  const r = (await link.call(cmds)).map(int);
  const has = (ti: number, k: number) => r[ti * 2 + k] === 1;
  const activeAt = terms.length * 2;

  const unknown = terms.filter((_, i) => !has(i, 0) && !has(i, 1));
  if (unknown.length > 0) {
    const t = unknown[0] as Term;
    throw new AppError(
      'VALIDATION',
      `unknown attribute ${unknown.map(termText).join(', ')}: no key ${keys.attr('bitmap', t)} nor ${keys.attr('set', t)} (column ${t.position + 1})`,
      'where',
    );
  }

  const missing: LayoutFacts['missing'] = {};
  const warnings: string[] = [];
  KINDS.forEach((kind, k) => {
    const held = terms.filter((_, i) => has(i, k));
    if (held.length === 0) {
      missing[kind] = `no ${kind} keys for the expression (e.g. ${keys.attr(kind, terms[0] as Term)})`;
      return;
    }
    for (const t of terms.filter((_, i) => !has(i, k))) warnings.push(`${keys.attr(kind, t)} does not exist: ${kind} strategies count it as empty`);
    const other = r[activeAt + 1 - k] ?? 0;
    if (r[activeAt + k] === 0 && other > 0) missing[kind] = `no ${kind} activity keys in the range (e.g. ${keys.active(kind, days[0] as string)})`;
    else if (plan.usesAll && r[activeAt + 2 + k] !== 1) missing[kind] = `NOT needs every user in ${keys.all(kind)}, which does not exist`;
  });
  if (r[activeAt] === 0 && r[activeAt + 1] === 0) warnings.push('no activity key exists for any day of the range: every count is 0');

  if (missing.set !== undefined) missing.zset = `the audience's ids come from the sets: ${missing.set}`;
  else missing.zset = await zsetMissing(link, keys, terms, has);
  if (missing.zset === undefined) delete missing.zset;
  return { missing, warnings };
}

/** Whether users of the set layout have days zsets; an empty id set says nothing (the audience is empty then). */
async function zsetMissing(link: AudienceLink, keys: LayoutKeys, terms: Term[], has: (ti: number, k: number) => boolean): Promise<string | undefined> {
  const i = terms.findIndex((_, ti) => has(ti, 1));
  const probe = await probeUserDays(link, keys, keys.attr('set', terms[i] as Term));
  return probe.exists || probe.example === undefined ? undefined : `no per-user zsets (${probe.example} does not exist)`;
}

/** SCAN steps the live check takes at most: ~100k slots, a few tens of ms even on a big DB. */
const SCRATCH_SCAN_STEPS = 100;

/**
 * SCAN over the scratch prefix: a key there that is not a trial's is somebody's data, and
 * a trial there could overwrite it. Refused, naming the key. Bounded (SCRATCH_SCAN_STEPS
 * of COUNT 1000): on a huge DB it is a sample, and checkScratchPrefix is the sure check.
 */
export async function checkScratchLive(link: AudienceLink, keys: LayoutKeys): Promise<void> {
  const prefix = keys.layout.scratchPrefix;
  const tag = keys.layout.hashTag === undefined ? '' : `{${keys.layout.hashTag}}:`;
  const isScratch = (k: string) => {
    const rest = k.slice(prefix.length);
    return SCRATCH_KEY.test(rest.startsWith(tag) ? rest.slice(tag.length) : rest);
  };
  let cursor = '0';
  for (let step = 0; step < SCRATCH_SCAN_STEPS; step++) {
    const [reply] = await link.call([['SCAN', cursor, 'MATCH', `${globEscape(prefix)}*`, 'COUNT', '1000']]);
    if (!Array.isArray(reply)) return;
    const foreign = (Array.isArray(reply[1]) ? reply[1] : []).map((k) => String(k)).find((k) => !isScratch(k));
    if (foreign !== undefined) {
      throw new AppError('VALIDATION', `scratch prefix "${prefix}" holds data keys (e.g. ${foreign}): choose another prefix`, 'layout.scratchPrefix');
    }
    cursor = String(reply[0]);
    if (cursor === '0') return;
  }
}

/**
 * Whether this connection may write under the scratch prefix: a SET with a short TTL and
 * its DEL. Returns the refusal (NOPERM from ACL, READONLY on a replica, OOM…) or undefined.
 */
export async function scratchWriteRefusal(link: AudienceLink, scratch: Scratch): Promise<string | undefined> {
  const probe = scratch.key('probe');
  const replies = await link.send([
    ['SET', probe, '1', 'PX', '10000'],
    ['DEL', probe],
  ]);
  const bad = replies.find((x) => x instanceof ReplyError);
  return bad instanceof ReplyError ? `this connection may not write scratch keys under ${scratch.base}: ${bad.message}` : undefined;
}

/**
 * Another job's connection named `prefix<id>` on this server (not `own`), from any
 * process; undefined when there is none, or when the ACL refuses CLIENT LIST (then
 * only the job manager's in-process check holds).
 */
export async function otherClientNamed(link: AudienceLink, prefix: string, own: string): Promise<{ id: string; addr: string } | undefined> {
  const [list] = await link.send([['CLIENT', 'LIST']]);
  if (list instanceof ReplyError) {
    // Refused by the ACL, or not there (a proxy, a renamed command): nothing to see.
    if (readRefusal(list, ['CLIENT', 'LIST']) !== undefined) return undefined;
    throw new AppError('INTERNAL', `CLIENT LIST failed: ${list.message}`);
  }
  return otherNamed(Buffer.isBuffer(list) ? list : String(list ?? ''), prefix, own);
}
