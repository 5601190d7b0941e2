import { describe, expect, it } from 'vitest';
import { composeWhere, setExclude, termText, toggleValue, unknownText, unusableName, valueText, type AttributePick } from './expression';

describe('composeWhere', () => {
  it('ANDs attributes, ORs one attribute’s values in parentheses and negates an excluded one', () => {
    let picks: AttributePick[] = [];
    picks = toggleValue(picks, 'gender', 'f');
    picks = toggleValue(picks, 'region', 'NE');
    picks = toggleValue(picks, 'region', 'MA');
    picks = toggleValue(picks, 'interest', 'golf');
    picks = setExclude(picks, 'interest', true);
    expect(composeWhere(picks)).toBe('gender=f AND (region=NE OR region=MA) AND NOT interest=golf');
  });

  it('drops a value picked twice and an attribute left with nothing, keeping the others in place', () => {
    let picks = toggleValue([], 'a', '1');
    picks = toggleValue(picks, 'b', '2');
    picks = toggleValue(picks, 'a', '1');
    expect(picks.map((p) => p.name)).toEqual(['b']);
    picks = toggleValue(picks, 'a', '3');
    picks = toggleValue(picks, 'b', '4');
    expect(composeWhere(picks)).toBe('(b=2 OR b=4) AND a=3');
    expect(composeWhere([])).toBe('');
  });

  it('keeps "none of" chosen before any value, and writes nothing for it yet', () => {
    const picks = setExclude([], 'age', true);
    expect(picks).toEqual([{ name: 'age', values: [], exclude: true }]);
    expect(composeWhere(picks)).toBe('');
    expect(composeWhere(toggleValue(picks, 'age', '25-34'))).toBe('NOT age=25-34');
  });

  it('leaves out attributes whose names the syntax cannot say', () => {
    const picks = toggleValue(toggleValue([], 'home town', 'x'), 'gender', 'm');
    expect(composeWhere(picks)).toBe('gender=m');
  });
});

describe('values and names', () => {
  it('quotes values that are not plain words, escaping quotes and backslashes', () => {
    expect(valueText('25-34')).toBe('25-34');
    expect(valueText('New York')).toBe('"New York"');
    expect(valueText('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(valueText('<img src=x>')).toBe('"<img src=x>"');
    expect(valueText('or')).toBe('"or"');
    expect(termText('region', 'Île')).toBe('region="Île"');
  });

  it('says why a name cannot be used', () => {
    expect(unusableName('interest')).toBeUndefined();
    expect(unusableName('age_band.v2')).toBeUndefined();
    expect(unusableName('NOT')).toContain('keyword');
    expect(unusableName('home town')).toContain('characters');
    expect(unusableName('')).toContain('characters');
  });
});

describe('unknownText', () => {
  it('names an attribute the server never saw, and a known attribute’s missing value', () => {
    const known = [{ name: 'region' }, { name: 'gender' }];
    expect(unknownText({ name: 'planet', value: 'mars' }, known)).toBe('unknown attribute "planet" (in planet=mars)');
    expect(unknownText({ name: 'region', value: 'Mars Base' }, known)).toBe('no users hold region="Mars Base"');
    expect(unknownText({ name: 'planet', value: 'mars' }, undefined)).toBe('no users hold planet=mars');
  });
});
