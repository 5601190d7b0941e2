import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ClientColumns, NodeClients } from '../../../app/schemas/clients';
import { restrictionLine, type Restriction } from '../../../app/schemas/restrictions';
import { plural } from '../../lib/plural';
import { killRefusedEverywhere } from './killRefused';
import { NodeCards } from './NodeCards';

const columns: ClientColumns = {
  id: [],
  addr: [],
  name: [],
  user: [],
  db: [],
  cmd: [],
  age: [],
  idle: [],
  flags: [],
  subs: [],
  qbuf: [],
  argvMem: [],
  multiMem: [],
  omem: [],
  totMem: [],
  kind: [],
  limitShare: [],
  lib: [],
  netIn: [],
  netOut: [],
  cmds: [],
  marks: [],
};
const node = (address: string, over: Partial<NodeClients> = {}): NodeClients => ({
  address,
  role: 'master',
  up: true,
  clients: columns,
  notShown: 0,
  unparsed: 0,
  totals: {
    clients: 17,
    byName: [{ name: 'worker', count: 17 }],
    byUser: [{ name: 'default', count: 17 }],
    memory: { qbuf: 0, argvMem: 0, multiMem: 0, omem: 0, totMem: 4096 },
    marks: { omem: 0, idle: 0, blocked: 0, monitor: 0, pubsub: 0, ours: 0 },
  },
  ...over,
});
const noop = () => undefined;
const html = (nodes: NodeClients[]) => renderToStaticMarkup(createElement(NodeCards, { nodes, onPause: noop, onUnpause: noop }));
/** The card of `address`, as markup. */
const card = (markup: string, address: string) => markup.match(new RegExp(`<section[^>]*data-address="${address}"[^>]*>.*?</section>`))?.[0] ?? '';

const kill: Restriction = { command: 'CLIENT KILL', effect: 'clients cannot be killed from here' };
const pause: Restriction = { command: 'CLIENT PAUSE', effect: 'clients cannot be paused from here' };
const list: Restriction = { command: 'CLIENT LIST', effect: 'no clients listed for this node' };

describe('the Clients page where a managed service refuses CLIENT KILL, CLIENT PAUSE or CLIENT LIST', () => {
  it('with nothing refused: a card counts its clients, offers Pause, and has no notice', () => {
    const markup = html([node('10.0.0.1:6379')]);
    expect(markup).not.toContain('data-testid="restrictions"');
    expect(markup).toContain('data-testid="clients-pause"');
    expect(markup).toContain(plural(17, 'client'));
    expect(killRefusedEverywhere([node('10.0.0.1:6379')])).toBe(false);
  });

  it('CLIENT KILL refused: the card names it in one line, and the Kill column goes only when every node refuses it', () => {
    const a = node('10.0.0.1:6379', { writeRestrictions: [kill] });
    const b = node('10.0.0.2:6379');
    const markup = html([a, b]);
    expect(card(markup, a.address)).toContain(`data-command="CLIENT KILL">${restrictionLine(kill)}`);
    expect(card(markup, b.address)).not.toContain('data-testid="restrictions"');
    // A refusal is a status line, not an error alert.
    expect(card(markup, a.address)).not.toContain('role="alert"');
    expect(killRefusedEverywhere([a, b])).toBe(false);
    expect(killRefusedEverywhere([a, node('10.0.0.2:6379', { writeRestrictions: [kill] })])).toBe(true);
    // Another refusal is not a reason to drop Kill.
    expect(killRefusedEverywhere([node('10.0.0.1:6379', { writeRestrictions: [pause] })])).toBe(false);
    expect(killRefusedEverywhere([])).toBe(false);
    expect(killRefusedEverywhere(undefined)).toBe(false);
  });

  it('CLIENT PAUSE refused: the card names it and has no Pause button; the other card keeps its own', () => {
    const a = node('10.0.0.1:6379', { writeRestrictions: [pause] });
    const b = node('10.0.0.2:6379');
    const markup = html([a, b]);
    expect(card(markup, a.address)).toContain(`data-command="CLIENT PAUSE">${restrictionLine(pause)}`);
    expect(card(markup, a.address)).not.toContain('data-testid="clients-pause"');
    expect(card(markup, b.address)).toContain('data-testid="clients-pause"');
  });

  it('CLIENT LIST refused: the card names it, shows the count as unknown (never 0 or a stale figure), and lists no names', () => {
    const a = node('10.0.0.1:6379', { restrictions: [list], totals: { ...node('x').totals, clients: 0 } });
    const markup = card(html([a]), a.address);
    expect(markup).toContain(`data-command="CLIENT LIST">${restrictionLine(list)}`);
    expect(markup).toMatch(/data-testid="clients-node-count"[^>]*>\? clients</);
    expect(markup).not.toContain(plural(0, 'client'));
    expect(markup).not.toContain('By name');
  });

  it('CONFIG GET refused: the card says why there is no near-the-limit highlight', () => {
    const limitsNote = 'CONFIG GET is not available here: no client-output-buffer-limit, so no near-the-limit highlight.';
    const markup = card(html([node('10.0.0.1:6379', { limitsNote })]), '10.0.0.1:6379');
    expect(markup).toContain(`data-testid="clients-limits-note">${limitsNote}<`);
  });
});
