import { describe, expect, it } from 'vitest';
import type { ConfigParam } from '../../../app/schemas/config';
import { cellShown, diffCounts, sections, setOutcome, visibleText } from './configModel';

const p = (name: string, group: ConfigParam['group'], cells: ConfigParam['cells'], extra: Partial<ConfigParam> = {}): ConfigParam => ({
  name,
  group,
  secret: false,
  cells,
  ...extra,
});

const params: ConfigParam[] = [
  p('maxmemory', 'memory', [{ value: '0' }, { value: '5', diff: { against: 'm', kind: 'matters', reason: 'why' } }], { differs: 'matters' }),
  p('maxmemory-policy', 'memory', [{ value: 'noeviction' }, { value: 'noeviction' }]),
  p('port', 'clients', [{ value: '1' }, { value: '2', diff: { against: 'm', kind: 'expected', reason: 'own' } }], { differs: 'expected' }),
  p('replica-priority', 'replication', [{ value: '100' }, { value: '100' }], { aliases: ['slave-priority'] }),
];

describe('the config page model', () => {
  it('keeps sections in order and filters by name, alias or a shown value', () => {
    const all = sections(params, { query: '', diffsOnly: false }, [0, 1]);
    expect(all.map((s) => [s.group, s.params.map((x) => x.name)])).toEqual([
      ['memory', ['maxmemory', 'maxmemory-policy']],
      ['clients', ['port']],
      ['replication', ['replica-priority']],
    ]);
    expect(sections(params, { query: 'SLAVE', diffsOnly: false }, [0, 1]).flatMap((s) => s.params.map((x) => x.name))).toEqual(['replica-priority']);
    expect(sections(params, { query: 'noevic', diffsOnly: false }, [0, 1]).flatMap((s) => s.params.map((x) => x.name))).toEqual(['maxmemory-policy']);
  });

  it('shows differences only among the shown columns, leaving the per-node ones out', () => {
    expect(sections(params, { query: '', diffsOnly: true }, [0, 1]).flatMap((s) => s.params.map((x) => x.name))).toEqual(['maxmemory']);
    expect(sections(params, { query: '', diffsOnly: true }, [0])).toEqual([]);
    // The row being edited stays, whatever its new value.
    expect(sections(params, { query: 'zzz', diffsOnly: true, keep: 'port' }, [0, 1]).flatMap((s) => s.params.map((x) => x.name))).toEqual(['port']);
    expect(diffCounts(params)).toEqual({ differ: 1, matter: 1 });
  });

  it('says what a cell holds, as text', () => {
    expect(cellShown({ value: '' })).toEqual({ kind: 'empty', text: '(empty)' });
    expect(cellShown({})).toEqual({ kind: 'absent', text: '—' });
    expect(cellShown(undefined).kind).toBe('absent');
    expect(cellShown({ secretSet: true })).toEqual({ kind: 'secret', text: 'hidden · set' });
    expect(cellShown({ value: '<b>x</b>' })).toEqual({ kind: 'value', text: '<b>x</b>' });
    expect(visibleText('a\nb\u202ec\x7f')).toBe('a\\x0ab\\u202ec\\x7f');
  });

  it("says each node's outcome of a set in words, a secret's without its value", () => {
    expect(setOutcome({ address: 'a', ok: true, before: '0', after: '104857600' }, false)).toBe('set: 0 → 104857600');
    expect(setOutcome({ address: 'a', ok: true }, true)).toBe('set (the value stays hidden)');
    expect(setOutcome({ address: 'a', ok: false, error: { code: 'REDIS', message: 'ERR bad' } }, false)).toBe('ERR bad');
  });
});
