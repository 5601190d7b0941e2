import { describe, expect, it } from 'vitest';
import { AppError } from '../../app/errors';
import { parseTrialsArgs } from './trialsArgs';

const url = ['--url', 'redis://127.0.0.1:6390/2'];
const fieldOf = (argv: string[]) => {
  try {
    parseTrialsArgs(argv, {});
  } catch (e) {
    return e instanceof AppError ? e.field : 'not an AppError';
  }
  return 'no error';
};

describe('cacheboard trials flags', () => {
  it("defaults to the contract's settings for each trial", () => {
    expect(parseTrialsArgs(['pipeline', ...url], {})).toEqual({
      url: 'redis://127.0.0.1:6390/2',
      json: false,
      settings: { trial: 'pipeline', n: 100_000, batch: 1_000, sweep: true, sweepN: 10_000, confirmNonEmpty: false },
    });
    expect(parseTrialsArgs(['multiplex', ...url], {}).settings).toEqual({ trial: 'multiplex', n: 5_000, batch: 10, dbs: 5, confirmNonEmpty: false });
    expect(parseTrialsArgs(['load', ...url], {}).settings).toEqual({
      trial: 'load',
      clients: 50,
      n: 100_000,
      dataSize: 3,
      keyspace: 100_000,
      confirmNonEmpty: false,
    });
  });

  it('takes every flag of its trial, the latency in fractions of a ms, and the URL from REDIS_URL', () => {
    const p = parseTrialsArgs(['pipeline', '--n', '500', '--batch', '50', '--no-sweep', '--latency-ms', '0.3', '--confirm-non-empty', '--json'], {
      REDIS_URL: 'redis://h:1/0',
    });
    expect(p).toEqual({
      url: 'redis://h:1/0',
      json: true,
      settings: { trial: 'pipeline', n: 500, batch: 50, sweep: false, sweepN: 10_000, latencyMs: 0.3, confirmNonEmpty: true },
    });
    expect(parseTrialsArgs([...url, 'load', '--clients', '8', '--data-size', '100', '--keyspace', '10'], {}).settings).toMatchObject({
      clients: 8,
      dataSize: 100,
      keyspace: 10,
    });
    expect(parseTrialsArgs(['multiplex', ...url, '--dbs', '3', '--batch', '20'], {}).settings).toMatchObject({ dbs: 3, batch: 20 });
  });

  it.each([
    [['pipeline'], 'url'],
    [[...url], 'trial'],
    [['fast', ...url], 'trial'],
    [['load', 'pipeline', ...url], 'trial'],
    [['pipeline', ...url, '--n', '0'], 'n'],
    [['pipeline', ...url, '--n', 'lots'], 'n'],
    [['pipeline', ...url, '--n', '2000000'], 'n'],
    [['load', ...url, '--batch', '5'], 'batch'],
    [['multiplex', ...url, '--dbs', '17'], 'dbs'],
    [['pipeline', ...url, '--dbs', '2'], 'dbs'],
    [['multiplex', ...url, '--no-sweep'], 'no-sweep'],
    [['load', ...url, '--clients', '0'], 'clients'],
    [['load', ...url, '--data-size', '1.5'], 'data-size'],
    [['pipeline', ...url, '--sweep-n', '0'], 'sweep-n'],
    [['pipeline', ...url, '--latency-ms=-1'], 'latency-ms'],
    [['pipeline', ...url, '--latency-ms', '2000'], 'latency-ms'],
  ])('%j is refused naming --%s', (argv, field) => {
    expect(fieldOf(argv)).toBe(field);
  });

  it('refuses an unknown flag with the usage', () => {
    expect(() => parseTrialsArgs(['load', ...url, '--fast'], {})).toThrow(/Unknown option '--fast'[\s\S]*Usage: cacheboard trials/);
  });
});
