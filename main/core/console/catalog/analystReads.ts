import type { NodeReply, ReplyNode } from '../../../../app/schemas/console';
import { withoutValues } from '../../metrics';

/**
 * Admin reads the server puts outside @read (or in @dangerous) whose data a page already shows
 * an analyst: the console runs them for analysts too, each reply masked as that page masks it.
 * CONFIG GET's secret parameters are masked for every role as the reply is read (reply/secretMask.ts,
 * over the Config page's own list, text/configSecrets.ts); INFO and CLIENT LIST are shown as the
 * Overview and Clients pages show them; SLOWLOG GET loses its values as the Overview's slow log
 * does for analysts (metrics' withoutValues).
 */
const ANALYST_READS: Record<string, { page: string; mask?: (reply: NodeReply) => NodeReply }> = {
  INFO: { page: 'Overview' },
  'CONFIG GET': { page: 'Config' },
  'CLIENT LIST': { page: 'Clients' },
  'SLOWLOG GET': { page: 'Overview', mask: slowlogWithoutValues },
};

/** Where the data of an admin command family is shown, for an analyst's refusal: "the Config page shows …". */
const PAGES: Record<string, string> = {
  CONFIG: 'the Config page shows every setting of every node (changing one is for ops)',
  CLIENT: 'the Clients page lists the connected clients (killing or pausing them is for ops)',
  SLOWLOG: "the Overview page's slow log shows the slow commands",
  LATENCY: "the Overview page's latency table shows the latency events",
  INFO: 'the Overview page shows INFO',
  CLUSTER: 'the Overview page shows the cluster, its nodes and slots',
  PUBSUB: 'the Pub/Sub page lists the channels',
};

/** An admin read an analyst may run in the console (its name with subcommand, "CONFIG GET"). */
export function isAnalystRead(command: string): boolean {
  return ANALYST_READS[command.toUpperCase()] !== undefined;
}

/** The page that shows what a refused command would, in words; undefined when none does. */
export function pageShowing(command: string): string | undefined {
  return PAGES[command.toUpperCase().split(' ')[0] ?? ''];
}

/** An analyst's reply to an admin read, masked as its page masks it for analysts. */
export function maskedForAnalyst(command: string, reply: NodeReply): NodeReply {
  const mask = ANALYST_READS[command.toUpperCase()]?.mask;
  return mask === undefined ? reply : mask(reply);
}

/** A bulk string's text without the quotes the reply tree shows it in. */
function unquoted(n: ReplyNode): string {
  if (n.t !== 'bulk' && n.t !== 'simple') return '';
  return n.t === 'bulk' && n.v.startsWith('"') && n.v.endsWith('"') ? n.v.slice(1, -1) : n.v;
}

/**
 * SLOWLOG GET: [id, time, duration, [args…], client address, client name] per entry; the args keep
 * the command and its key or subcommand, and say how many were withheld. A reply cut for the page
 * (too long to show whole) is refused instead: its download would hold the values.
 */
function slowlogWithoutValues(node: NodeReply): NodeReply {
  const { reply } = node;
  if (reply.t === 'error') return node;
  if (node.cut !== undefined || (reply.t !== 'array' && reply.t !== 'set') || reply.items.length < reply.total) {
    const { cut: _cut, ...rest } = node;
    return { ...rest, reply: { t: 'error', v: 'This slow log is too long to show without its values: ask for fewer entries (SLOWLOG GET 10).' } };
  }
  const items = reply.items.map((entry): ReplyNode => {
    if (entry.t !== 'array') return entry;
    const args = entry.items[3];
    if (args === undefined || args.t !== 'array') return entry;
    const kept = withoutValues({ args: args.items.map(unquoted) });
    const shown: ReplyNode[] = args.items.slice(0, kept.args.length);
    if (kept.argsHidden > 0) shown.push({ t: 'simple', v: `(${kept.argsHidden} argument${kept.argsHidden === 1 ? '' : 's'} hidden)` });
    const entryItems = [...entry.items];
    entryItems[3] = { t: 'array', items: shown, total: shown.length };
    return { ...entry, items: entryItems };
  });
  return { ...node, reply: { ...reply, items } };
}
