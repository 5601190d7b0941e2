import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { NodeSample } from '../../../app/schemas/metrics';
import { StatGrid } from './StatGrid';

const sample = (over: Partial<NodeSample>): NodeSample => ({ address: '127.0.0.1:6379', at: 0, up: true, role: 'master', ...over });
const html = (s: NodeSample) => renderToStaticMarkup(createElement(StatGrid, { sample: s, lastUp: undefined, link: undefined, role: undefined }));

describe('the Overview headline figures', () => {
  it('name the server and its own version: Valkey by valkey_version, a server that names none as Redis', () => {
    expect(html(sample({ server: 'valkey', version: '8.0.1' }))).toMatch(/data-testid="stat-version">Valkey 8\.0\.1</);
    expect(html(sample({ version: '7.0.15' }))).toMatch(/data-testid="stat-version">Redis 7\.0\.15</);
  });

  it('show hash fields expired (expired_subkeys) with the hashes whose fields expire where the server reports them, and nothing where not', () => {
    const redis8 = html(
      sample({
        expiredSubkeys: 1234,
        keyspace: [
          { db: 0, keys: 10, expires: 1, subexpiry: 3 },
          { db: 1, keys: 5, expires: 0, subexpiry: 2 },
        ],
      }),
    );
    expect(redis8).toMatch(/data-testid="stat-expired-subkeys">1,234</);
    expect(redis8).toContain('5 hashes with expiring fields (subexpiry)');
    expect(html(sample({ keyspace: [{ db: 0, keys: 10, expires: 1 }] }))).not.toContain('stat-expired-subkeys');
  });
});
