/** OpenSSH host patterns (`*`, `?`), as used by `Host` lines in ssh_config and host fields in known_hosts. */
export function matchPattern(pattern: string, host: string): boolean {
  const re = pattern
    .toLowerCase()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(host.toLowerCase());
}

/**
 * A pattern list matches when one plain pattern matches and no `!negated` one does:
 * OpenSSH's match_pattern_list, where a negated match vetoes the whole list.
 */
export function matchPatternList(patterns: readonly string[], host: string): boolean {
  let matched = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (matchPattern(p.slice(1), host)) return false;
    } else if (matchPattern(p, host)) {
      matched = true;
    }
  }
  return matched;
}
