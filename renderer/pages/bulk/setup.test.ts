import { describe, expect, it } from 'vitest';
import {
  confirmMatches,
  controlOf,
  EMPTY_MAPPING,
  EMPTY_TARGET,
  guessFormat,
  insertColumn,
  splitFields,
  toLoadOptions,
  toMapping,
  toPreviewInput,
  type TargetValues,
} from './setup';

const target = (t: Partial<TargetValues> = {}): TargetValues => ({ ...EMPTY_TARGET, targetDb: '0', ...t });

describe('toMapping', () => {
  it('sends only the columns the chosen type uses', () => {
    const v = { ...EMPTY_MAPPING, key: 'user:{id}', value: ' name ', member: 'm', score: 's', fields: 'a,b' };
    expect(toMapping(v)).toEqual({ key: 'user:{id}', type: 'string', value: 'name' });
    expect(toMapping({ ...v, type: 'hash' })).toEqual({ key: 'user:{id}', type: 'hash', fields: ['a', 'b'] });
    expect(toMapping({ ...v, type: 'zset' })).toEqual({ key: 'user:{id}', type: 'zset', member: 'm', score: 's' });
    expect(toMapping({ ...v, type: 'list' })).toEqual({ key: 'user:{id}', type: 'list', member: 'm' });
  });

  it('leaves empty inputs out for the server to name what is missing', () => {
    expect(toMapping({ ...EMPTY_MAPPING, key: 'k:{id}' })).toEqual({ key: 'k:{id}', type: 'string' });
    expect(toMapping({ ...EMPTY_MAPPING, key: 'k', type: 'hash', fields: ' , ' })).toEqual({ key: 'k', type: 'hash' });
  });

  it('sends a whole TTL as a number and anything else as typed, for the server to reject', () => {
    expect(toMapping({ ...EMPTY_MAPPING, key: 'k', ttl: '3600' }).ttl).toBe(3600);
    expect(toMapping({ ...EMPTY_MAPPING, key: 'k', ttl: '1h' }).ttl).toBe('1h');
  });

  it('splits comma-separated fields', () => {
    expect(splitFields('a, b,,c ')).toEqual(['a', 'b', 'c']);
  });
});

describe('toPreviewInput', () => {
  it('previews bare until there is a key template, so the columns still come back', () => {
    expect(toPreviewInput('f_abcdef', '', EMPTY_MAPPING, true)).toEqual({ fileId: 'f_abcdef', rows: 10 });
    expect(toPreviewInput('f_abcdef', 'csv', { ...EMPTY_MAPPING, key: 'u:{id}', value: 'v' }, true)).toEqual({
      fileId: 'f_abcdef',
      rows: 10,
      format: 'csv',
      mapping: { key: 'u:{id}', type: 'string', value: 'v' },
    });
  });

  it('sends no mapping for command formats', () => {
    expect(toPreviewInput('f_abcdef', 'resp', { ...EMPTY_MAPPING, key: 'x' }, false).mapping).toBeUndefined();
  });
});

describe('confirmation', () => {
  it('asks for the target DB number in swap and flush', () => {
    expect(confirmMatches(target({ mode: 'swap', targetDb: '3', confirm: '' }))).toBe(false);
    expect(confirmMatches(target({ mode: 'swap', targetDb: '3', confirm: '4' }))).toBe(false);
    expect(confirmMatches(target({ mode: 'flush', targetDb: '3', confirm: ' 3 ' }))).toBe(true);
    expect(confirmMatches(target({ mode: 'swap', targetDb: '03', confirm: '3' }))).toBe(true);
  });

  it('does not ask in merge', () => {
    expect(confirmMatches(target({ mode: 'merge', confirm: '' }))).toBe(true);
  });

  it('cannot be satisfied while the target is not a number', () => {
    expect(confirmMatches(target({ targetDb: '', confirm: '' }))).toBe(false);
    expect(confirmMatches(target({ targetDb: 'x', confirm: 'x' }))).toBe(false);
  });
});

describe('toLoadOptions', () => {
  it('sends the confirmation and swap options for a swap', () => {
    const o = toLoadOptions(
      'p1',
      'f_abcdef',
      'csv',
      { ...EMPTY_MAPPING, key: 'k:{id}', value: 'v' },
      target({
        targetDb: '2',
        confirm: '2',
        stagingDb: '9',
        force: true,
        maxErrors: '10',
        bgsave: true,
        waitReplicas: '1',
      }),
    );
    expect(o).toEqual({
      profileId: 'p1',
      fileId: 'f_abcdef',
      format: 'csv',
      mapping: { key: 'k:{id}', type: 'string', value: 'v' },
      mode: 'swap',
      targetDb: 2,
      stagingDb: 9,
      force: true,
      maxErrors: 10,
      bgsave: true,
      waitReplicas: 1,
      confirmDb: 2,
    });
  });

  it('sends neither staging options nor a confirmation for a merge', () => {
    const o = toLoadOptions('p1', 'f_abcdef', '', undefined, target({ mode: 'merge', stagingDb: '9', force: true, confirm: '0', allowEmpty: true }));
    expect(o).toEqual({ profileId: 'p1', fileId: 'f_abcdef', mode: 'merge', targetDb: 0 });
  });

  it('sends the opt-ins only when ticked: allowEmpty for swap and flush, allowEvictionRisk for any mode', () => {
    expect(toLoadOptions('p1', 'f_abcdef', '', undefined, target({ confirm: '0' }))).not.toHaveProperty('allowEmpty');
    expect(toLoadOptions('p1', 'f_abcdef', '', undefined, target({ mode: 'flush', confirm: '0', allowEmpty: true }))).toMatchObject({ allowEmpty: true });
    expect(toLoadOptions('p1', 'f_abcdef', '', undefined, target({ mode: 'merge', allowEvictionRisk: true }))).toMatchObject({ allowEvictionRisk: true });
  });

  it('sends allowLiveWrites for a swap only, when ticked', () => {
    expect(toLoadOptions('p1', 'f_abcdef', '', undefined, target({ confirm: '0' }))).not.toHaveProperty('allowLiveWrites');
    expect(toLoadOptions('p1', 'f_abcdef', '', undefined, target({ confirm: '0', allowLiveWrites: true }))).toMatchObject({ allowLiveWrites: true });
    expect(toLoadOptions('p1', 'f_abcdef', '', undefined, target({ mode: 'flush', confirm: '0', allowLiveWrites: true }))).not.toHaveProperty(
      'allowLiveWrites',
    );
  });
});

describe('controlOf', () => {
  it('routes contract paths to the input they name', () => {
    expect(controlOf('mapping.value')).toBe('mapping.value');
    expect(controlOf('mapping.fields.2')).toBe('mapping.fields');
    expect(controlOf('mapping')).toBe('mapping.key');
    expect(controlOf('confirmDb')).toBe('confirmDb');
    expect(controlOf('format')).toBe('format');
    expect(controlOf('allowEmpty')).toBe('allowEmpty');
    expect(controlOf('allowEvictionRisk')).toBe('allowEvictionRisk');
    expect(controlOf('allowLiveWrites')).toBe('allowLiveWrites');
  });

  it('leaves fields without an input to the general alert', () => {
    expect(controlOf('profileId')).toBeUndefined();
    expect(controlOf(undefined)).toBeUndefined();
    expect(controlOf('rows')).toBeUndefined();
  });
});

describe('insertColumn', () => {
  it('inserts {col} at the caret, replacing a selection', () => {
    expect(insertColumn('user:', 'id', 5, 5)).toEqual({ text: 'user:{id}', caret: 9 });
    expect(insertColumn('user:XX:x', 'id', 5, 7)).toEqual({ text: 'user:{id}:x', caret: 9 });
  });

  it('appends when the caret is unknown', () => {
    expect(insertColumn('a:', 'b', null, null)).toEqual({ text: 'a:{b}', caret: 5 });
  });
});

describe('guessFormat', () => {
  it('reads the extension, like the server does for "auto"', () => {
    expect(guessFormat('users.CSV')).toBe('csv');
    expect(guessFormat('events.jsonl')).toBe('ndjson');
    expect(guessFormat('dump.resp')).toBe('resp');
    expect(guessFormat('noext')).toBeUndefined();
  });
});
