import { describe, expect, it } from 'vitest';
import { besideField, numberInput, pageWords } from './formInput';

describe('numberInput', () => {
  it('turns whole numbers into numbers and empty into absent', () => {
    expect(numberInput(' 6380 ')).toBe(6380);
    expect(numberInput('')).toBeUndefined();
  });
  it('passes other text through for the server to reject, never NaN', () => {
    expect(numberInput('abc')).toBe('abc');
    expect(JSON.stringify({ port: numberInput('12x') })).toBe('{"port":"12x"}');
  });
});

describe('besideField', () => {
  it("drops the dispatcher's path prefix, which the input's place already says", () => {
    expect(besideField('mapping.value: value is required', 'mapping.value')).toBe('value is required');
    expect(besideField('db must be a number', 'targetDb')).toBe('db must be a number');
    expect(besideField('x: y', undefined)).toBe('x: y');
  });

  it('drops a schema identifier that opens the message, which the page never shows; a plain word stays', () => {
    expect(besideField('sampleEvery must be at least 1', 'sampleEvery')).toBe('Must be at least 1');
    expect(besideField('options.maxShrinkPct must be a number', 'options.maxShrinkPct')).toBe('Must be a number');
    expect(besideField('port must be between 1 and 65535', 'port')).toBe('port must be between 1 and 65535');
  });

  it("drops the core's parenthesised field name (the CLI turns it into its flag; beside the input it is said)", () => {
    const core = 'db 0 holds keys of its own. Confirm to run there anyway (confirmNonEmpty), or pick an empty DB.';
    expect(besideField(core, 'confirmNonEmpty')).toBe('db 0 holds keys of its own. Confirm to run there anyway, or pick an empty DB.');
    expect(besideField('db 3 holds 2 keys: … leave the others (overwrite)', 'overwrite')).toBe('db 3 holds 2 keys: … leave the others');
  });
});

describe('pageWords', () => {
  it("turns a flag the core names for the CLI into the page's checkbox, and drops CLI-only alternatives", () => {
    expect(
      pageWords('would empty DB 0. Refused, nothing was replaced; pass --allow-empty (on the page: "Allow an empty or much smaller DB") to replace it anyway'),
    ).toBe('would empty DB 0. Refused, nothing was replaced; tick “Allow an empty or much smaller DB” to replace it anyway');
    expect(
      pageWords(
        'more than the 50% --max-shrink allows. Refused; pass --max-shrink 62 or --allow-empty (on the page: "Allow an empty or much smaller DB") to replace it anyway',
      ),
    ).toBe('more than the 50% allowed. Refused; tick “Allow an empty or much smaller DB” to replace it anyway');
    expect(pageWords('plain words stay')).toBe('plain words stay');
  });
});
