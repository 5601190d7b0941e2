import { describe, expect, it } from 'vitest';
import { REPLY_DISPLAY_ELEMENTS } from '../../../app/schemas/console';
import { useConsoleOnServer } from './consoleRpcTestKit';

const ELEMENTS = REPLY_DISPLAY_ELEMENTS + 100;

const { rpc } = useConsoleOnServer({
  arrange: (admin) => admin.rpush('big', ...Array.from({ length: ELEMENTS }, (_, i) => `e-${i}`)),
});

// What the console does is core/console's to test (over consoleTestKit); these are its calls over the dispatcher.
describe("the console's calls over the contract", () => {
  it("console.catalog and console.history answer for the session's user and role", async () => {
    const catalog = await rpc().as('analyst').invoke('console.catalog', { profileId: 'p' });
    expect(catalog.commands.find((c) => c.name === 'GET')).toMatchObject({ categories: expect.arrayContaining(['@read']) });
    await rpc().done('analyst', { line: 'GET nothing' });
    expect(await rpc().history('analyst')).toEqual(['GET nothing']);
    expect(await rpc().history('ops')).toEqual([]);
  });

  it("console.download streams a cut reply to the session's user, and ends another user's stream, or one for an unknown id, with NOT_FOUND", async () => {
    const r = await rpc().done('ops', { line: 'LRANGE big 0 -1' });
    const id = r.replies[0]?.cut?.downloadId ?? 'missing';
    const file = await rpc().download('ops', id);
    expect(file.length).toBe(r.replies[0]?.cut?.fileBytes);
    expect(file.toString('utf8')).toContain(`${ELEMENTS}) "e-${ELEMENTS - 1}"`);
    await expect(rpc().download('analyst', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(rpc().download('ops', 'no-such-download')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
