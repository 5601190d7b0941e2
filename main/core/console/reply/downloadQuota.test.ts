import { describe, expect, it } from 'vitest';
import { REPLY_DISPLAY_ELEMENTS } from '../../../../app/schemas/console';
import { REPLY_FILE_LIMITS } from './replyFiles';
import { useConsoleCore } from '../consoleTestKit';

const ELEMENTS = REPLY_DISPLAY_ELEMENTS + 1_000;
const { core } = useConsoleCore({
  arrange: async (admin) => {
    for (let i = 0; i < ELEMENTS; i += 7_000) await admin.rpush('big', ...Array.from({ length: Math.min(7_000, ELEMENTS - i) }, (_, j) => `e-${i + j}`));
  },
});

describe('reply downloads, per user', () => {
  it("an analyst's many cut replies never remove an ops user's download; their own oldest go", async () => {
    const ops = await core().done('ops', { line: 'LRANGE big 0 -1' });
    const opsId = ops.replies[0]?.cut?.downloadId ?? 'missing';
    const mine: string[] = [];
    for (let i = 0; i <= REPLY_FILE_LIMITS.files; i++) {
      const r = await core().done('analyst', { line: 'LRANGE big 0 -1' });
      mine.push(r.replies[0]?.cut?.downloadId ?? 'missing');
    }
    expect((await core().download('ops', opsId)).toString('utf8')).toContain(`e-${ELEMENTS - 1}`);
    await expect(core().download('analyst', mine[0] as string)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await core().download('analyst', mine.at(-1) as string)).length).toBeGreaterThan(0);
  });
});
