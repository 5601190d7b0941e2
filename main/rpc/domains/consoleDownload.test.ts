import { describe, expect, it } from 'vitest';
import { REPLY_DISPLAY_ELEMENTS } from '../../../app/schemas/console';
import { useConsoleOnServer } from './consoleRpcTestKit';

const ELEMENTS = REPLY_DISPLAY_ELEMENTS + 100;

const { rpc } = useConsoleOnServer({
  arrange: (admin) => admin.rpush('big', ...Array.from({ length: ELEMENTS }, (_, i) => `e-${i}`)),
});

// The download itself is core/console/reply's (cutReplies, downloadQuota): this is the stream binding over the dispatcher.
describe('console.download over the contract', () => {
  it("streams a cut reply to the session's user, and ends another user's stream, or one for an unknown id, with NOT_FOUND", async () => {
    const r = await rpc().done('ops', { line: 'LRANGE big 0 -1' });
    const id = r.replies[0]?.cut?.downloadId ?? 'missing';
    const file = await rpc().download('ops', id);
    expect(file.length).toBe(r.replies[0]?.cut?.fileBytes);
    expect(file.toString('utf8')).toContain(`${ELEMENTS}) "e-${ELEMENTS - 1}"`);
    await expect(rpc().download('analyst', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(rpc().download('ops', 'no-such-download')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
