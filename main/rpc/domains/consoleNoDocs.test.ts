import { describe, expect, it } from 'vitest';
import { RESTRICTED_USER } from '../../../testing/restricted';
import { useRestrictedRuntime } from './restrictedRpcTestKit';

// COMMAND DOCS cannot be renamed alone: a managed service's way to take it is an ACL user without it.
const { ops } = useRestrictedRuntime('-command|docs');

describe(`the Console's catalog for ${RESTRICTED_USER.name} without COMMAND DOCS`, () => {
  it('answers COMMAND INFO names with one line naming COMMAND DOCS and what it costs, not an error', async () => {
    const catalog = await ops().invoke('console.catalog', { profileId: 'env' });
    expect(catalog.source).toBe('info');
    expect(catalog.note).toBe("This server's ACL user may not run COMMAND DOCS: autocomplete shows command names, without syntax or summaries.");
    expect(catalog.commands.find((c) => c.name === 'GET')?.summary).toBeUndefined();
    expect(catalog.commands.some((c) => c.name === 'SET')).toBe(true);
  });
});
