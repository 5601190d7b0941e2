import { namesOf } from './configAliases';

/** What a masked secret reads as in the audit log and in any text that could have held it. */
export const MASKED = '(secret)';

/** The secrets the issue names; the rule below catches others (a module's, a newer Redis's). An alias of one is one (configAliases.ts). */
const KNOWN = new Set(['requirepass', 'masterauth', 'masteruser', 'tls-key-file-pass', 'tls-client-key-file-pass']);
const NAMED = /pass|auth|secret/i;

/**
 * Named like a secret but holding a choice: shown only while every value is one of the choices,
 * so a server that put something else there (a module reusing the name) still gets it masked.
 */
const CHOICES: Readonly<Record<string, RegExp>> = { 'tls-auth-clients': /^(yes|no|optional)$/i };

/** Named like a secret, by any of its names: its value is masked unless it is one of its choices (secretChoices). */
export function namedSecret(name: string): boolean {
  return namesOf(name).some((n) => KNOWN.has(n.toLowerCase()) || NAMED.test(n));
}

/** The values a parameter named like a secret may show because they are choices, not secrets; undefined: none may. */
export function secretChoices(name: string): RegExp | undefined {
  return CHOICES[name.toLowerCase()];
}

/** Whether a parameter is a secret, given the values it holds (for the named-but-a-choice ones). */
export function isSecret(name: string, values: Iterable<string> = []): boolean {
  if (!namedSecret(name)) return false;
  const choices = secretChoices(name);
  if (choices === undefined) return true;
  for (const v of values) if (!choices.test(v)) return true;
  return false;
}

/**
 * `text` with every secret value in it replaced by MASKED: for Redis's replies and error texts,
 * which are not meant to echo a value but are not ours to trust. Empty secrets are no secret.
 */
export function scrub(text: string, secrets: Iterable<string>): string {
  let out = text;
  // Longest first: a secret that holds another is masked whole.
  for (const s of [...secrets].filter((x) => x !== '').sort((a, b) => b.length - a.length)) out = out.split(s).join(MASKED);
  return out;
}
