import { describe, expect, it } from 'vitest';
import { REPLY_DISPLAY_ELEMENTS } from '../../../../app/schemas/console';
import { specFor } from '../../../../testing/profiles';
import { useConsoleCore } from '../consoleTestKit';

const REQUIREPASS = 'requirepass-Exec-7731';
const MASTERAUTH = 'masterauth-Exec-9052';
const BIG = REPLY_DISPLAY_ELEMENTS + 5_000;

const { admin, core } = useConsoleCore({
  server: { password: REQUIREPASS },
  arrange: async (admin) => {
    await admin.config('SET', 'masterauth', MASTERAUTH);
    for (let i = 0; i < BIG; i += 5_000) await admin.rpush('big', ...Array.from({ length: 5_000 }, (_, j) => `element-${i + j}`));
  },
  profiles: (redis) => [{ id: 'p', source: 'config', spec: specFor(redis, { password: REQUIREPASS }) }],
});

/** Runs the lines in order on one console (MULTI … EXEC), each typed back when held; the last run's result. */
async function script(lines: string[], extra: { protocol?: 2 | 3 } = {}) {
  let last;
  for (const line of lines) last = await core().confirmed('ops', { line, consoleId: 'console-multi', ...extra });
  if (last === undefined) throw new Error('no lines');
  return last;
}

const noSecret = (text: string): void => {
  expect(text).not.toContain(REQUIREPASS);
  expect(text).not.toContain(MASTERAUTH);
};

describe('secret parameters in a reply, whatever command brought it', () => {
  it("are masked in EXEC's reply of CONFIG GETs queued in MULTI, on RESP2 and RESP3", async () => {
    for (const protocol of [2, 3] as const) {
      const r = await script(['MULTI', 'CONFIG GET requirepass', 'CONFIG GET masterauth', 'EXEC'], { protocol });
      const text = JSON.stringify(r.replies);
      noSecret(text);
      expect(text.split('(secret)').length - 1).toBe(2);
      expect(text).toContain('requirepass');
    }
  });

  it('are masked in CONFIG GET * inside MULTI, the other values as the server sent them', async () => {
    const r = await script(['MULTI', 'CONFIG GET *', 'EXEC'], { protocol: 3 });
    const text = JSON.stringify(r.replies);
    noSecret(text);
    expect(text).toContain('maxmemory-policy');
    expect(text).toContain('noeviction');
  });

  it('are masked in the download of an EXEC reply big enough to be cut', async () => {
    const r = await script(['MULTI', 'LRANGE big 0 -1', 'CONFIG GET masterauth', 'CONFIG GET requirepass', 'EXEC']);
    const cut = r.replies[0]?.cut;
    expect(cut?.downloadId).toEqual(expect.any(String));
    const file = (await core().download('ops', cut?.downloadId ?? 'missing')).toString('utf8');
    expect(file).toContain(`element-${BIG - 1}`);
    noSecret(file);
    expect(file.split('(secret)').length - 1).toBe(2);
    // The raw form (redis-cli --raw) of the same.
    await script(['MULTI', 'LRANGE big 0 -1', 'CONFIG GET masterauth']);
    const raw = await core().confirmed('ops', { line: 'EXEC', consoleId: 'console-multi', raw: true });
    const rawFile = (await core().download('ops', raw.replies[0]?.cut?.downloadId ?? 'missing')).toString('utf8');
    noSecret(rawFile);
    expect(rawFile).toContain('(secret)');
  });

  it('are masked when the download starts in the middle of a secret (a value past the RESP the reader keeps)', async () => {
    // 10 MB: past the 8 MiB of RESP the reader keeps before it starts a file, mid-value.
    const huge = `huge-${'S'.repeat(10 * 1024 * 1024)}`;
    await admin().config('SET', 'masterauth', huge);
    try {
      const r = await core().confirmed('ops', { line: 'CONFIG GET masterauth' });
      expect(JSON.stringify(r)).not.toContain('SSSSSSSS');
      const id = r.replies[0]?.cut?.downloadId;
      expect(id).toEqual(expect.any(String));
      const file = (await core().download('ops', id ?? 'missing')).toString('utf8');
      expect(file).not.toContain('SSSSSSSS');
      expect(file).toContain('(secret)');
    } finally {
      await admin().config('SET', 'masterauth', MASTERAUTH);
    }
  });

  it('are masked in a plain CONFIG GET too, and the server keeps its value', async () => {
    const r = await core().confirmed('ops', { line: 'CONFIG GET masterauth' });
    noSecret(JSON.stringify(r));
    expect(await admin().config('GET', 'masterauth')).toEqual(['masterauth', MASTERAUTH]);
  });
});
