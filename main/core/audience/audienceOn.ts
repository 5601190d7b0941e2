import type { AudienceAttributes, AudienceLayout, AudienceParseResult } from '../../../app/schemas/audience';
import { AppError } from '../../../app/errors';
import { formatHostPort } from '../../../app/hostPort';
import type { PoolApi, ProfileSpec } from '../pool/types';
import { connectionFor, type RawTarget } from '../resp/rawTarget';
import type { AudienceLink } from './audienceLink';
import { audienceServer } from './audienceServer';
import { describeWhere, unknownTerms } from './describeWhere';
import { discoverAttributes } from './discoverAttributes';
import { LayoutKeys } from './layoutKeys';
import { withLink } from './openLink';
import { checkReadOnlyTrial } from './readOnlyTrial';
import { checkScratchPrefix } from './scratch';

/** The one server an audience call runs on (audienceServer), its DB, and the raw links it opens there. */
export interface AudienceOn {
  server: ProfileSpec;
  db: number;
  /** "host:port": one trial or demo load at a time runs here. */
  address: string;
  /** A raw connection there, named for CLIENT LIST. */
  target(connectionName: string): RawTarget;
  /** One link there for `fn`, closed after. */
  withLink<T>(connectionName: string, fn: (link: AudienceLink) => Promise<T>): Promise<T>;
}

/**
 * Where a profile's audience call runs: a cluster's master serving the layout's hash tag, a
 * sentinel profile's current master, or the server itself; the DB asked, else the profile's.
 */
export async function audienceOn(
  pool: Pick<PoolApi, 'masters'>,
  connectionId: string,
  spec: ProfileSpec,
  layout: Pick<AudienceLayout, 'hashTag'>,
  db: number | undefined,
): Promise<AudienceOn> {
  const target = db ?? spec.db;
  const server = await audienceServer(pool, connectionId, spec, layout, target);
  const at = (name: string): RawTarget => connectionFor(server, target, name);
  return { server, db: target, address: formatHostPort(server), target: at, withLink: (name, fn) => withLink(at(name), fn) };
}

/** The attributes the layout's keys hold on the server (audience.attributes). */
export function audienceAttributes(on: AudienceOn, layout: AudienceLayout): Promise<AudienceAttributes> {
  return on.withLink('cacheboard:audience:attributes', (link) => discoverAttributes(link, new LayoutKeys(layout)));
}

/**
 * The builder's check of a typed expression; with a server to ask (`on`), the terms no key
 * there holds are named too.
 */
export async function audienceParse(where: string, layout: AudienceLayout, on: (() => Promise<AudienceOn>) | undefined): Promise<AudienceParseResult> {
  const { parsed, ...result } = describeWhere(where);
  if (on === undefined || parsed === undefined || parsed.length === 0) return result;
  const unknown = await (await on()).withLink('cacheboard:audience:parse', (link) => unknownTerms(link, new LayoutKeys(layout), parsed));
  return { ...result, unknown: unknown.map(({ name, value }) => ({ name, value })) };
}

/** A trial's ask refused before any server is asked: an expression that does not parse, a scratch prefix data keys could share. */
export function refuseTrialAsk(options: { where: string; layout: AudienceLayout }): void {
  const check = describeWhere(options.where);
  if (check.error !== undefined) throw new AppError('VALIDATION', `where: ${check.error.message}`, 'where');
  checkScratchPrefix(new LayoutKeys(options.layout));
}

/** An analyst's trial only reads: refused here, before any job or write, with the reason (checkReadOnlyTrial). */
export function refuseUnlessReadOnly(on: AudienceOn, options: Parameters<typeof checkReadOnlyTrial>[1]): Promise<void> {
  return on.withLink('cacheboard:audience:check', (link) => checkReadOnlyTrial(link, options));
}
