import { describe, expect, it } from 'vitest';
import { REPLY_DISPLAY_ELEMENTS, REPLY_STRING_BYTES } from '../../../../app/schemas/console';
import { onlyReply, useConsoleCore } from '../consoleTestKit';

const ELEMENTS = 60_000;
const { core } = useConsoleCore({
  arrange: async (admin) => {
    for (let i = 0; i < ELEMENTS; i += 10_000) {
      await admin.rpush('big', ...Array.from({ length: 10_000 }, (_, j) => `element-${i + j}`));
    }
    await admin.set('long', 'x'.repeat(REPLY_STRING_BYTES * 2));
  },
});

describe('a reply past the display bound', () => {
  it('is cut for the page, and the whole of it downloads as text, for its user only', async () => {
    const r = await core().done('ops', { line: 'LRANGE big 0 -1' });
    const reply = onlyReply(r);
    expect(reply.t).toBe('array');
    if (reply.t !== 'array') return;
    expect(reply.total).toBe(ELEMENTS);
    expect(reply.items.length).toBeLessThanOrEqual(REPLY_DISPLAY_ELEMENTS);
    const cut = r.replies[0]?.cut;
    expect(cut).toMatchObject({ totalElements: ELEMENTS + 1, downloadId: expect.any(String) });
    if (cut === undefined) return;
    const file = await core().download('ops', cut.downloadId);
    expect(file.length).toBe(cut.fileBytes);
    const text = file.toString('utf8');
    expect(text).toContain(`${ELEMENTS}) "element-${ELEMENTS - 1}"`);
    expect(text.split('\n').filter((l) => l.includes('element-')).length).toBe(ELEMENTS);
    await expect(core().download('analyst', cut.downloadId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('writes the raw form when the run asked for raw', async () => {
    const r = await core().done('ops', { line: 'LRANGE big 0 -1', raw: true });
    const file = (await core().download('ops', r.replies[0]?.cut?.downloadId ?? 'missing')).toString('utf8');
    expect(file.split('\n').slice(0, 2)).toEqual(['element-0', 'element-1']);
  });

  it('cuts one long string, saying how long it was', async () => {
    const r = await core().done('ops', { line: 'GET long' });
    expect(onlyReply(r)).toMatchObject({ t: 'bulk', bytes: REPLY_STRING_BYTES * 2, cut: true });
    expect(r.replies[0]?.cut?.downloadId).toEqual(expect.any(String));
  });
});
