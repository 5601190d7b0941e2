import { readFileSync } from 'node:fs';
import type { SshRoute } from './ssh';

/** Asks a person for the passphrase of `keyFile`; undefined when none was given. */
export type AskPassphrase = (keyFile: string) => Promise<string | undefined>;

let asker: AskPassphrase | undefined;
/** Per key file, once a process: --ssh-key serves every hop, and the person types it once. */
const answered = new Map<string, string | undefined>();

/**
 * Where a passphrase nobody gave comes from: the CLI installs a terminal prompt; the desktop
 * and web builds install none (their passphrases are stored with the profile).
 */
export function askPassphrasesWith(ask: AskPassphrase | undefined): void {
  asker = ask;
  answered.clear();
}

/** Whether the key file is encrypted (ssh2 cannot read it without a passphrase). Unreadable: false, the login names it. */
async function isEncrypted(keyFile: string): Promise<boolean> {
  let data: Buffer;
  try {
    data = readFileSync(keyFile);
  } catch {
    return false;
  }
  // ssh2 is CommonJS and its `utils` is no named export Node can see: through the default export.
  // Imported here so that a process that never opens a tunnel never loads it.
  const { default: ssh2 } = await import('ssh2');
  const parsed = ssh2.utils.parseKey(data);
  return parsed instanceof Error && /passphrase|encrypted/i.test(parsed.message);
}

/** The route with the passphrase asked for each hop whose key is encrypted and has none. */
export async function withAskedPassphrases(route: SshRoute): Promise<SshRoute> {
  const ask = asker;
  if (ask === undefined) return route;
  const hops = [];
  for (const hop of route.hops) {
    if (hop.keyFile === undefined || hop.passphrase !== undefined || !(await isEncrypted(hop.keyFile))) {
      hops.push(hop);
      continue;
    }
    if (!answered.has(hop.keyFile)) answered.set(hop.keyFile, await ask(hop.keyFile));
    const passphrase = answered.get(hop.keyFile);
    hops.push(passphrase === undefined ? hop : { ...hop, passphrase });
  }
  return { ...route, hops };
}
