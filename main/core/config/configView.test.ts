import { describe, expect, it } from 'vitest';
import { configView } from './configView';
import { foldAliases } from './paramGroups';
import type { NodeRead } from './readConfig';

/** One node's CONFIG GET * as the server lists it, read as readNode reads it. */
const read = (address: string, role: string, listed: Record<string, string>, master?: string): NodeRead => ({
  ref: { address, role, up: true, ...(master === undefined ? {} : { master }) },
  state: 'ok',
  ...foldAliases(new Map(Object.entries(listed))),
});

describe('configView', () => {
  it("Valkey's primaryauth/primaryuser and Redis's masterauth/masteruser are one secret parameter each, one row, a replica's own", () => {
    // Valkey 8 lists the new and the old name of each, with the same value.
    const valkey = (pw: string, user: string) => ({ primaryauth: pw, masterauth: pw, primaryuser: user, masteruser: user, hz: '10' });
    const view = configView([read('m:1', 'master', valkey('', '')), read('r:1', 'replica', valkey('pw-primary-7', 'repl-user-3'), 'm:1')], 'standalone', 0);
    const text = JSON.stringify(view);
    expect(text).not.toContain('pw-primary-7');
    expect(text).not.toContain('repl-user-3');
    const names = view.params.map((p) => p.name);
    expect(names.filter((n) => /auth|user/.test(n)).sort()).toEqual(['primaryauth', 'primaryuser']);
    for (const name of ['primaryauth', 'primaryuser']) {
      const p = view.params.find((x) => x.name === name);
      expect(p, name).toMatchObject({ secret: true, group: 'replication', aliases: [name.replace('primary', 'master')] });
      expect(p?.cells[1]).toMatchObject({ secretSet: true, diff: { kind: 'expected' } });
      expect(p?.differs).toBe('expected');
    }
  });

  it('compares a node that lists only the old name with one that lists both as one parameter', () => {
    const view = configView(
      [read('m:1', 'master', { masterauth: 'pw-old-1' }), read('r:1', 'replica', { primaryauth: 'pw-old-1', masterauth: 'pw-old-1' }, 'm:1')],
      'standalone',
      0,
    );
    expect(view.params.map((p) => p.name)).toEqual(['primaryauth']);
    expect(view.params[0]).toMatchObject({ secret: true, cells: [{ secretSet: true }, { secretSet: true }] });
    expect(view.params[0]?.differs).toBeUndefined();
  });
});
