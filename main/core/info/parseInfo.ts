/** INFO parsed: lowercased section name -> field -> raw value. */
export type InfoSections = Record<string, Record<string, string>>;

/**
 * Parse the text INFO returns: `# Section` headers, `field:value` lines, CRLF
 * line ends, blank lines between sections. Values may themselves hold colons
 * (`executable:/usr/bin/redis-server`), so only the first colon splits. Lines
 * before any header (INFO <single field> on some servers) go to section "".
 */
export function parseInfo(text: string): InfoSections {
  const out: InfoSections = {};
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      section = line.slice(1).trim().toLowerCase();
      out[section] ??= {};
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const fields = (out[section] ??= {});
    fields[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return out;
}

/**
 * Parse comma-separated `k=v` pairs, the shape of keyspace lines
 * (`keys=1,expires=0,avg_ttl=0`) and of replica lines in the replication section.
 */
export function parseInfoPairs(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}
