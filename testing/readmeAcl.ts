import { readFileSync } from 'node:fs';

/**
 * The security model's `ACL SETUSER cb-analyst …` line (docs/security.md, moved from the README) exactly as documented, with `password` in
 * place of CHANGE-ME: the arguments after `ACL SETUSER`, to run with `call('ACL', 'SETUSER', …)`.
 */
export function readmeAclLine(password: string): string[] {
  const line = readFileSync(new URL('../docs/security.md', import.meta.url), 'utf8')
    .split('\n')
    .find((l) => l.trim().startsWith('ACL SETUSER cb-analyst'));
  if (line === undefined) throw new Error('docs/security.md has no "ACL SETUSER cb-analyst" line');
  return line.trim().replace('>CHANGE-ME', `>${password}`).split(/\s+/).slice(2);
}
