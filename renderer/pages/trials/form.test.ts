import { describe, expect, it } from 'vitest';
import { TrialOptions } from '../../../app/schemas/trials';
import { controlOf, decimalInput, DEFAULT_FORM, toOptions, type TrialForm } from './form';

const form = (patch: Partial<TrialForm>): TrialForm => ({ ...DEFAULT_FORM, ...patch });

describe('toOptions', () => {
  it('sends the pipeline trial with its own inputs only, straight to the server', () => {
    expect(toOptions('p1', DEFAULT_FORM)).toEqual({
      profileId: 'p1',
      trial: 'pipeline',
      confirmNonEmpty: false,
      sweep: true,
      n: 100000,
      batch: 1000,
      sweepN: 10000,
    });
  });

  it('leaves the sweep size out when the sweep is off, and sends the DB and the delay when set', () => {
    const o = toOptions('p1', form({ sweep: false, db: '3', proxy: true, latencyMs: ' 0.3 ', confirmNonEmpty: true }));
    expect(o).toMatchObject({ trial: 'pipeline', sweep: false, db: 3, latencyMs: 0.3, confirmNonEmpty: true });
    expect('sweepN' in o).toBe(false);
  });

  it('sends multiplex and load with theirs, each trial keeping what was typed for it', () => {
    const inputs = { ...DEFAULT_FORM.inputs, load: { clients: '4', n: '2000', dataSize: '16', keyspace: '' } };
    expect(toOptions('p1', form({ trial: 'load', inputs }))).toEqual({
      profileId: 'p1',
      trial: 'load',
      confirmNonEmpty: false,
      clients: 4,
      n: 2000,
      dataSize: 16,
    });
    expect(toOptions('p1', form({ trial: 'multiplex', inputs }))).toMatchObject({ trial: 'multiplex', n: 5000, batch: 10, dbs: 5 });
  });

  it('sends junk as typed, so the contract names the field in its refusal', () => {
    const inputs = { ...DEFAULT_FORM.inputs, pipeline: { n: 'lots', batch: '1000', sweepN: '10' } };
    const sent = toOptions('p1', form({ inputs, proxy: true, latencyMs: '' }));
    const parsed = TrialOptions.safeParse(sent);
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['n', 'latencyMs']));
  });

  it('builds what the contract accepts from the defaults of every trial', () => {
    for (const trial of ['pipeline', 'multiplex', 'load'] as const) {
      expect(TrialOptions.safeParse(toOptions('p1', form({ trial, proxy: true }))).success).toBe(true);
    }
  });
});

describe('form helpers', () => {
  it('reads decimals and passes anything else through', () => {
    expect(decimalInput('0.3')).toBe(0.3);
    expect(decimalInput('.5')).toBe(0.5);
    expect(decimalInput('2')).toBe(2);
    expect(decimalInput('1e3')).toBe('1e3');
    expect(decimalInput('-1')).toBe(-1);
    expect(decimalInput('0,3')).toBe('0,3');
  });

  it('maps server fields to inputs; the profile and unknown fields go to the general error', () => {
    expect(controlOf('confirmNonEmpty')).toBe('confirmNonEmpty');
    expect(controlOf('dbs')).toBe('dbs');
    expect(controlOf('profileId')).toBeUndefined();
    expect(controlOf(undefined)).toBeUndefined();
  });
});
