import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { KeyspaceTable } from './KeyspaceTable';

const html = (keyspace: Parameters<typeof KeyspaceTable>[0]['keyspace']) => renderToStaticMarkup(createElement(KeyspaceTable, { keyspace }));

describe('the Overview keyspace table', () => {
  it('shows the hashes whose fields expire where the server reports subexpiry (Redis 7.4+), and no such column where it does not', () => {
    const withIt = html([
      { db: 0, keys: 5, expires: 1, subexpiry: 2 },
      { db: 1, keys: 4, expires: 0 },
    ]);
    expect(withIt).toContain('Fields expire');
    expect(withIt).toMatch(/data-db="0".*data-col="subexpiry">2</);
    expect(withIt).toMatch(/data-db="1".*data-col="subexpiry">—</);
    // A server without hash-field expiry (the Redis 7.0 of the tests) reports none: no column claims 0.
    const without = html([{ db: 0, keys: 5, expires: 1 }]);
    expect(without).not.toContain('Fields expire');
    expect(without).not.toContain('subexpiry');
  });
});
