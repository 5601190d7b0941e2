import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { NodeSample } from '../../../app/schemas/metrics';
import { restrictionLine, type Restriction } from '../../../app/schemas/restrictions';
import { since } from '../../lib/display';
import { formatCount } from '../../lib/format';
import { PersistencePanel } from './PersistencePanel';
import type { Finished, OpsActions } from './useOpsActions';

const address = '10.0.0.7:6380';
const persistence: NonNullable<NodeSample['persistence']> = {
  rdbBgsaveInProgress: false,
  rdbLastBgsaveStatus: 'ok',
  rdbLastBgsaveSeconds: 3,
  rdbChangesSinceLastSave: 4321,
  rdbLastSaveTime: 1_000,
  aofEnabled: true,
  aofRewriteInProgress: false,
  aofLastRewriteStatus: 'ok',
  aofSizeBytes: 2048,
  latestForkUsec: 1500,
};
const sample = (over: Partial<NodeSample> = {}): NodeSample => ({ address, at: 0, up: true, role: 'master', persistence, ...over });
const ops = (over: Partial<OpsActions> = {}): OpsActions => ({
  running: [],
  finished: [],
  history: [],
  historyError: undefined,
  restrictions: [],
  run: () => undefined,
  ...over,
});
const now = 1_060_000;
const html = (s: NodeSample, o: OpsActions) =>
  renderToStaticMarkup(createElement(PersistencePanel, { nodes: [{ address, color: '#123456', sample: s }], selected: address, ops: o, now }));

/** The one button of `action`, with its attributes. */
const button = (markup: string, action: string) => markup.match(new RegExp(`<button[^>]*data-testid="action-${action}"[^>]*>`))?.[0] ?? '';
/** The cells of the node's row, as text. */
const rowCells = (markup: string) =>
  [...(markup.match(new RegExp(`<tr[^>]*data-address="${address}"[^>]*>(.*?)</tr>`))?.[1] ?? '').matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) =>
    (m[1] ?? '').replace(/<[^>]+>/g, ''),
  );

const bgsave: Restriction = { command: 'BGSAVE', effect: 'no background save from here' };
const config: Restriction = { command: 'CONFIG GET', effect: 'no save schedule or AOF settings' };
const info: Restriction = { command: 'INFO', effect: 'no persistence figures for this node' };

describe('the Persistence panel where a managed service refuses commands', () => {
  it('with nothing refused shows the figures, offers BGSAVE and BGREWRITEAOF, and no notice', () => {
    const markup = html(sample(), ops());
    expect(markup).not.toContain('data-testid="restrictions"');
    expect(markup).not.toContain('is not available here');
    expect(button(markup, 'bgsave')).not.toMatch(/disabled/);
    expect(button(markup, 'bgrewriteaof')).not.toMatch(/disabled/);
    const cells = rowCells(markup);
    expect(cells[0]).toBe('ok');
    expect(cells[1]).toContain(`${since(persistence.rdbLastSaveTime, now)} ago`);
    expect(cells[2]).toBe(formatCount(persistence.rdbChangesSinceLastSave));
    expect(cells[3]).toBe('on');
  });

  it('names BGSAVE and CONFIG GET, and what is not shown, when they are refused beforehand; BGSAVE is off, the other action stays', () => {
    const markup = html(sample(), ops({ restrictions: [bgsave, config] }));
    expect(markup).toContain('data-testid="restrictions"');
    expect(markup).toContain(`data-command="BGSAVE">${restrictionLine(bgsave)}`);
    expect(markup).toContain(`data-command="CONFIG GET">${restrictionLine(config)}`);
    expect(button(markup, 'bgsave')).toMatch(/disabled=""/);
    expect(button(markup, 'bgsave')).toContain('title="BGSAVE is not available here"');
    expect(button(markup, 'bgrewriteaof')).not.toMatch(/disabled/);
  });

  it('names BGSAVE when it was refused at run time, and turns the button off', () => {
    const refusedRun: Finished = { action: 'bgsave', address, refused: bgsave };
    const markup = html(sample(), ops({ finished: [refusedRun] }));
    expect(markup).toContain(restrictionLine(bgsave));
    expect(button(markup, 'bgsave')).toMatch(/disabled=""/);
    // A refusal is a status line, not an error alert.
    expect(markup).not.toContain('role="alert"');
  });

  it('where INFO was refused shows no figure at all (no 0, no "never"), says so in one line, and offers neither action', () => {
    const markup = html(sample({ persistence: undefined, restrictions: [info] }), ops({ restrictions: [info] }));
    expect(markup).toContain(`data-command="INFO">${restrictionLine(info)}`);
    const cells = rowCells(markup);
    expect(cells).toEqual(['No persistence info.']);
    expect(markup).not.toMatch(/<td[^>]*>\s*0\s*<\/td>/);
    expect(markup).not.toMatch(/never/i);
    expect(button(markup, 'bgsave')).toMatch(/disabled=""/);
    expect(button(markup, 'bgrewriteaof')).toMatch(/disabled=""/);
  });
});
