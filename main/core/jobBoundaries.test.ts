import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The boundary messages ESLint gives `code` as if it were the file at `path` (never written to disk). */
async function refusals(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe("main/core/'s job folders", () => {
  it("import another job through its index.ts: '../<job>' and '../<job>/index' pass", async () => {
    expect(await refusals('main/core/clients/probe.ts', "export { ownClients } from '../monitor';\n")).toEqual([]);
    expect(await refusals('main/core/clients/probe.ts', "export { ownClients } from '../monitor/index';\n")).toEqual([]);
  });

  it("never reach inside another job: '../<job>/<file>' is refused", async () => {
    const messages = await refusals('main/core/clients/probe.ts', "export { ownClients } from '../monitor/ownClients';\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/main\/core\/clients\/ is a job/);
  });

  it('still import their own files and the shared folders', async () => {
    expect(await refusals('main/core/clients/probe.ts', "export { readNode } from './readNode';\nexport { pageNodes } from '../pool/profileNodes';\n")).toEqual(
      [],
    );
  });

  it('shared folders import no job folder, not even its index', async () => {
    expect(await refusals('main/core/pool/probe.ts', "export { ownClients } from '../monitor';\n")).toHaveLength(1);
  });

  it('import no transport', async () => {
    expect(await refusals('main/core/clients/probe.ts', "export { Dispatcher } from '../../rpc/dispatcher';\n")).toHaveLength(1);
  });
});
