import { describe, expect, it } from 'vitest';
import { onlyReply, useConsoleCore } from '../consoleTestKit';

const { admin, core } = useConsoleCore();

describe('console.run splits a line as redis-cli does', () => {
  it('sends a quoted key and value with spaces and \\x escapes byte for byte', async () => {
    const line = `SET "a key with spaces" "tab\\there \\x00\\xff\\x7f 'single' \\"double\\""`;
    const r = await core().done('ops', { line: `  ${line} ` });
    expect(onlyReply(r)).toEqual({ t: 'simple', v: 'OK' });
    const value = await admin().getBuffer('a key with spaces');
    expect(value).toEqual(Buffer.concat([Buffer.from('tab\there '), Buffer.from([0x00, 0xff, 0x7f]), Buffer.from(` 'single' "double"`)]));
    // The history keeps it as typed, so recalling it sends the same bytes (\xff is no UTF-8 text to re-quote).
    expect(r.line).toBe(line);
    expect((await core().history('ops')).at(-1)).toBe(line);
  });

  it("takes single quotes literally but for \\', and glues quoted parts to their argument", async () => {
    await core().done('ops', { line: `SET k'ey 1' 'it\\'s \\x41'` });
    expect(await admin().get('key 1')).toBe("it's \\x41");
  });

  it('sends non-ASCII text as its UTF-8 bytes', async () => {
    await core().done('ops', { line: 'SET "clé é" "日本語 ✓"' });
    expect(await admin().get('clé é')).toBe('日本語 ✓');
  });

  it('refuses an unterminated quote naming its column, and a closing quote glued to more text', async () => {
    await expect(core().refusal('ops', { line: 'SET k "open' })).resolves.toMatchObject({
      code: 'VALIDATION',
      field: 'line',
      message: expect.stringContaining('column 7'),
    });
    await expect(core().refusal('ops', { line: 'SET "k"x v' })).resolves.toMatchObject({
      code: 'VALIDATION',
      field: 'line',
      message: expect.stringMatching(/^Column 8: a closing quote/),
    });
    await expect(core().refusal('ops', { line: '   ' })).resolves.toMatchObject({ code: 'VALIDATION', field: 'line' });
  });
});
