import { describe, expect, it } from 'vitest';
import { DEFAULT_FORM, type TrialForm } from './form';
import { preCheck, trialDbs } from './preCheck';

const facts = (keys: Record<number, number>, replica = false) => ({ replica, keysIn: (db: number) => keys[db] ?? 0 });
const form = (over: Partial<TrialForm>): TrialForm => ({ ...DEFAULT_FORM, ...over });

describe('trialDbs', () => {
  it("is the typed DB, else the profile's; a multiplex run's DBs follow on from it", () => {
    expect(trialDbs(form({ db: '' }), 3)).toEqual([3]);
    expect(trialDbs(form({ db: ' 7 ' }), 3)).toEqual([7]);
    expect(trialDbs(form({ db: 'x' }), 3)).toBeUndefined();
    expect(trialDbs(form({ trial: 'multiplex', db: '2', inputs: { ...DEFAULT_FORM.inputs, multiplex: { n: '10', batch: '1', dbs: '3' } } }), 0)).toEqual([
      2, 3, 4,
    ]);
  });
});

describe('preCheck', () => {
  it('says nothing without facts: the server judges', () => {
    expect(preCheck(form({}), 0, undefined)).toEqual({ blocked: undefined, confirmNote: undefined });
  });

  it('blocks a replica', () => {
    expect(preCheck(form({}), 0, facts({}, true)).blocked).toContain('replica');
  });

  it('blocks a DB with keys until the box is ticked, naming the count, in page words', () => {
    const r = preCheck(form({ db: '1' }), 0, facts({ 1: 198_002 }));
    expect(r.confirmNote).toContain('db1 holds 198,002 keys of its own');
    expect(r.blocked).toContain('Run even if the DB holds keys of its own');
    expect(`${r.confirmNote} ${r.blocked}`).not.toContain('confirmNonEmpty');
    expect(preCheck(form({ db: '1', confirmNonEmpty: true }), 0, facts({ 1: 5 }))).toEqual({ blocked: undefined, confirmNote: undefined });
    expect(preCheck(form({ db: '2' }), 0, facts({ 1: 5 }))).toEqual({ blocked: undefined, confirmNote: undefined });
  });
});
