import { escapeBytes } from '../text/escapeBytes';
import { isSecret } from '../text/configSecrets';
import { migrateParts } from './catalog/migrateSyntax';

/** What a secret becomes in the history, the audit log and any log. */
export const REDACTED = '(redacted)';

/** SENTINEL SET <master> options and SENTINEL CONFIG SET parameters that hold credentials. */
const SECRET_SENTINEL = new Set(['auth-pass', 'auth-user', 'sentinel-pass', 'sentinel-user']);
const sentinelSecret = (name: string): boolean => SECRET_SENTINEL.has(name.toLowerCase());
/** ACL SETUSER rules that carry a password or its hash: >pass, <pass, #hash, !hash. */
const PASSWORD_RULE = /^[<>#!]/;
const SPACE_OR_QUOTE = /[ \t\n\v\f\r"']/;

/**
 * One argument as redis-cli would parse it back (sdssplitargs): as it is when it is plain
 * text; otherwise in double quotes with the escapes of escapeBytes (`\\`, `\"`, \n \r \t \a \b,
 * \xHH for other bytes). escapeBytes shows invisible and bidi characters as \uHHHH, which the
 * parser would read as a `u`: those are written as their UTF-8 bytes instead.
 */
export function quoteArg(arg: string): string {
  const buf = Buffer.from(arg, 'utf8');
  const escaped = escapeBytes(buf, 0, buf.length, { quote: true }).text.replace(
    /\\(\\|u([0-9a-f]{4}))/g,
    (whole: string, _: string, hex: string | undefined) =>
      hex === undefined
        ? whole
        : [...Buffer.from(String.fromCodePoint(parseInt(hex, 16)), 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''),
  );
  return arg === '' || escaped !== arg || SPACE_OR_QUOTE.test(arg) ? `"${escaped}"` : arg;
}

/** Marks the indexes of `args` that hold secrets, command by command (names in any case). */
function secretsOf(args: readonly string[], hide: (i: number, keep?: string) => void): void {
  const word = (i: number): string => (args[i] ?? '').toUpperCase();
  switch (word(0)) {
    case 'AUTH':
      // AUTH password | AUTH username password: every argument.
      for (let i = 1; i < args.length; i++) hide(i);
      return;
    case 'HELLO':
      // HELLO [protover [AUTH username password] [SETNAME name]]: AUTH's two; SETNAME's value
      // is skipped (a client named "auth" is not a clause). From 1, so a protover left out
      // does not leave the password in.
      for (let i = 1; i < args.length;) {
        if (word(i) === 'AUTH') {
          hide(i + 1);
          hide(i + 2);
          i += 3;
        } else i += word(i) === 'SETNAME' ? 2 : 1;
      }
      return;
    case 'ACL':
      // ACL SETUSER name rule…: the password rules keep their sign, the other rules stay.
      if (word(1) !== 'SETUSER') return;
      for (let i = 3; i < args.length; i++) {
        const rule = args[i] as string;
        if (PASSWORD_RULE.test(rule)) hide(i, rule.charAt(0));
      }
      return;
    case 'CONFIG':
      // CONFIG SET parameter value [parameter value …]
      if (word(1) === 'SET') hidePairs(args, 2, (name, value) => isSecret(name, [value]), hide);
      return;
    case 'SENTINEL':
      // SENTINEL SET master option value […]; SENTINEL CONFIG SET parameter value […]
      if (word(1) === 'SET') hidePairs(args, 3, sentinelSecret, hide);
      else if (word(1) === 'CONFIG' && word(2) === 'SET') hidePairs(args, 3, sentinelSecret, hide);
      return;
    case 'MIGRATE':
      for (const i of migrateParts(args).secrets) hide(i);
      return;
  }
}

/** The value after each parameter `secret` names (the Config page's rule for CONFIG SET), over `name value` pairs from `from`. */
function hidePairs(args: readonly string[], from: number, secret: (name: string, value: string) => boolean, hide: (i: number) => void): void {
  for (let i = from; i + 1 < args.length; i += 2) {
    if (secret(args[i] as string, args[i + 1] as string)) hide(i + 1);
  }
}

/**
 * A command line with its secrets replaced by `(redacted)`: AUTH, HELLO … AUTH, ACL SETUSER
 * >pass <pass #hash !hash, CONFIG SET requirepass/masterauth/masteruser/tls-*-pass, MIGRATE …
 * AUTH/AUTH2. What goes to the history, the audit log and any log. Args as parsed (unquoted);
 * the result is re-quoted as redis-cli would take it back.
 */
export function redactArgs(args: readonly string[]): { line: string; redacted: boolean } {
  const out = [...args];
  let redacted = false;
  secretsOf(args, (i, keep = '') => {
    if (i >= out.length) return;
    out[i] = keep + REDACTED;
    redacted = true;
  });
  return { line: out.map(quoteArg).join(' '), redacted };
}

/**
 * Whether a secret's place holds the redaction mark itself: a line recalled from the history
 * (`CONFIG SET requirepass (redacted)`), which run as it is would set the password to the
 * mark. The console refuses such a line and asks for the secret.
 */
export function holdsRedacted(args: readonly string[]): boolean {
  let found = false;
  secretsOf(args, (i, keep = '') => {
    if (args[i] === keep + REDACTED) found = true;
  });
  return found;
}
