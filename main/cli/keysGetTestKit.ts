import { vi } from 'vitest';
import { keysGet } from './keysGet';

/** Tests only: `cacheboard keys get …` run in-process; what it printed on stdout, and its exit code. */
export async function runKeysGet(...argv: string[]): Promise<{ code: number; out: string }> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    chunks.push(String(c));
    return true;
  });
  try {
    const code = await keysGet(argv, {});
    return { code, out: chunks.join('') };
  } finally {
    spy.mockRestore();
  }
}
