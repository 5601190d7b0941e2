import { describe, expect, it } from 'vitest';
import { differences, worst, type ComparedNode } from './differences';

const node = (address: string, role: string, values: Record<string, string> | undefined, master?: string): ComparedNode => ({
  address,
  role,
  ...(master === undefined ? {} : { master }),
  values: values === undefined ? undefined : new Map(Object.entries(values)),
});

describe('differences', () => {
  it('compares a replica with its master only, and classifies each parameter', () => {
    const d = differences([
      node('m:1', 'master', { maxmemory: '0', port: '1', hz: '10', masterauth: '' }),
      node('r:2', 'replica', { maxmemory: '5', port: '2', hz: '20', masterauth: 'pw' }, 'm:1'),
    ]);
    expect(d.get('m:1')).toBeUndefined();
    const r = d.get('r:2');
    expect(r?.get('maxmemory')).toMatchObject({ against: 'm:1', kind: 'matters' });
    expect(r?.get('port')?.kind).toBe('expected');
    expect(r?.get('masterauth')?.kind).toBe('expected');
    expect(r?.get('hz')).toMatchObject({ kind: 'drift', reason: 'Unlike its master m:1: nodes usually share it.' });
  });

  it('flags masters against the value most masters hold; a tie goes to the first master listed', () => {
    const three = differences([node('a:1', 'master', { save: '3600 1' }), node('b:1', 'master', { save: '' }), node('c:1', 'master', { save: '' })]);
    expect([...three.keys()]).toEqual(['a:1']);
    expect(three.get('a:1')?.get('save')).toMatchObject({ against: 'b:1', kind: 'matters' });
    const tie = differences([node('a:1', 'master', { hz: '10' }), node('b:1', 'master', { hz: '20' })]);
    expect([...tie.keys()]).toEqual(['b:1']);
  });

  it('counts a parameter one node lacks, and compares nothing with a node not read', () => {
    const d = differences([
      node('m:1', 'master', { 'new-thing': '1' }),
      node('r:1', 'replica', {}, 'm:1'),
      node('r:2', 'replica', undefined, 'm:1'),
      node('r:3', 'replica', { 'new-thing': '1' }, 'gone:1'),
    ]);
    expect([...d.keys()]).toEqual(['r:1']);
    expect(d.get('r:1')?.get('new-thing')?.kind).toBe('drift');
  });

  it('ranks kinds', () => {
    expect(worst(['expected', undefined, 'drift'])).toBe('drift');
    expect(worst(['drift', 'matters', 'expected'])).toBe('matters');
    expect(worst([undefined])).toBeUndefined();
  });
});
