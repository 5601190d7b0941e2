import { describe, expect, it } from 'vitest';
import { JSON_MAX_BYTES, jsonChildren, jsonSummary, parseJsonValue } from './jsonValue';

const enc = (s: string) => new TextEncoder().encode(s);

describe('parseJsonValue', () => {
  it('parses a whole, small, UTF-8 value and says why not otherwise', () => {
    const doc = enc('{"__proto__":{"polluted":1},"a":[1,2]}');
    const ok = parseJsonValue(doc, doc.length);
    expect(ok.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (ok.ok) expect(jsonChildren(ok.value).map(([k]) => k)).toEqual(['__proto__', 'a']);
    expect(parseJsonValue(doc.subarray(0, 5), doc.length)).toMatchObject({ ok: false, reason: expect.stringContaining('part') });
    expect(parseJsonValue(doc, JSON_MAX_BYTES + 1)).toMatchObject({ ok: false, reason: expect.stringContaining('1 MiB') });
    expect(parseJsonValue(Uint8Array.from([0xff]), 1)).toMatchObject({ ok: false, reason: expect.stringContaining('UTF-8') });
    expect(parseJsonValue(enc('{x'), 2)).toMatchObject({ ok: false, reason: expect.stringContaining('Not JSON') });
  });
  it('summarizes a folded node', () => {
    expect(jsonSummary([1, 2, 3])).toBe('[3 items]');
    expect(jsonSummary({ a: 1 })).toBe('{1 key}');
    expect(jsonSummary('x')).toBe('"x"');
  });
});
