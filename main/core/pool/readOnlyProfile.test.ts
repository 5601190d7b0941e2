import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isReadOnlyData, readOnlyDataWhy } from './readOnlyProfile';
import { analystVariant } from './roleProfiles';
import { loadServerConfig } from './serverConfig';
import type { StoredProfile } from './types';

const dir = mkdtempSync(join(tmpdir(), 'cb-readonly-rule-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = { name: 'p', host: '127.0.0.1', port: 1, db: 0, tls: { enabled: false, rejectUnauthorized: true } };
const refusal = { refused: 'its keys cannot be edited', instead: 'edit keys' };

/** The profiles a config file with these entries gives, by id. */
function fromConfig(entries: Array<Record<string, unknown>>): Map<string, StoredProfile> {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ profiles: entries }));
  return new Map(loadServerConfig(file, {}).map((p) => [p.id, p]));
}

describe('the read-only data rule', () => {
  it('writes are refused on the embedded server and a config profile marked readOnly, not on a user or unmarked config profile', () => {
    const config = fromConfig([
      { id: 'plain', name: 'plain', host: '127.0.0.1', port: 1 },
      { id: 'marked', name: 'marked', host: '127.0.0.1', port: 1, readOnly: true },
      { id: 'unmarked', name: 'unmarked', host: '127.0.0.1', port: 1, readOnly: false },
    ]);
    expect(isReadOnlyData({ source: 'user', spec })).toBe(false);
    expect(isReadOnlyData({ source: 'embedded', spec })).toBe(true);
    expect(isReadOnlyData(config.get('plain') as StoredProfile)).toBe(false);
    expect(isReadOnlyData(config.get('unmarked') as StoredProfile)).toBe(false);
    expect(isReadOnlyData(config.get('marked') as StoredProfile)).toBe(true);
  });

  it("an analyst's variant of a marked profile keeps the mark", () => {
    const marked = fromConfig([{ id: 'm', name: 'm', host: '127.0.0.1', port: 1, readOnly: true, analyst: { username: 'ana', password: 'x' } }]).get('m');
    expect(isReadOnlyData(analystVariant(marked as StoredProfile) as StoredProfile)).toBe(true);
  });

  it('says which case it is and what to do instead', () => {
    expect(readOnlyDataWhy({ source: 'user', spec }, refusal)).toBeUndefined();
    expect(readOnlyDataWhy({ source: 'embedded', spec }, refusal)).toBe(
      '"p" is the read-only embedded server: its keys cannot be edited. Add a profile for a server of your own to edit keys.',
    );
    expect(readOnlyDataWhy({ source: 'config', readOnlyData: true, spec }, refusal)).toMatch(
      /^"p" is marked "readOnly" in the server's config file: its keys cannot be edited\./,
    );
  });

  it('a config file whose readOnly is not a boolean is refused, naming the field', () => {
    expect(() => fromConfig([{ id: 'x', name: 'x', host: '127.0.0.1', port: 1, readOnly: 'yes' }])).toThrow(/profiles\[0\]\.readOnly/);
  });
});
