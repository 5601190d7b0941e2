import { describe, expect, it } from 'vitest';
import { AppError } from '../../../app/errors';
import { prepareLoad, type PrepareInput } from './prepareLoad';

const base: PrepareInput = {
  path: '/x/data.csv',
  fileLabel: 'data.csv',
  targetDb: 0,
  mode: 'swap',
  force: false,
  maxErrors: 0,
  bgsave: false,
  allowEmpty: false,
  maxShrink: 50,
  allowEvictionRisk: false,
  allowLiveWrites: false,
  requireConfirm: true,
  confirmDb: 0,
  mapping: { key: 'user:{id}', type: 'string', value: 'name' },
};

const fieldOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof AppError ? e.field : 'not an AppError';
  }
  return 'no error';
};

describe('prepareLoad', () => {
  it('guesses the format from the extension', () => {
    expect(prepareLoad(base).format).toBe('csv');
    expect(prepareLoad({ ...base, fileLabel: 'x.resp', mapping: undefined }).format).toBe('resp');
  });

  it('names the field of each refusal', () => {
    expect(fieldOf(() => prepareLoad({ ...base, fileLabel: 'data.bin' }))).toBe('format');
    expect(fieldOf(() => prepareLoad({ ...base, mapping: undefined }))).toBe('mapping.key');
    expect(fieldOf(() => prepareLoad({ ...base, fileLabel: 'x.resp' }))).toBe('mapping');
    expect(fieldOf(() => prepareLoad({ ...base, confirmDb: 3 }))).toBe('confirmDb');
    expect(fieldOf(() => prepareLoad({ ...base, stagingDb: 0 }))).toBe('stagingDb');
  });

  it('asks for the typed DB number for swap and flush, not merge, and not from the CLI', () => {
    const { confirmDb: _c, ...noConfirm } = base;
    expect(fieldOf(() => prepareLoad({ ...noConfirm, mode: 'flush' }))).toBe('confirmDb');
    expect(prepareLoad({ ...noConfirm, mode: 'merge' }).mode).toBe('merge');
    expect(prepareLoad({ ...noConfirm, requireConfirm: false }).mode).toBe('swap');
  });
});
