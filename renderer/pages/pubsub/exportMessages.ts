import type { Row } from './feed';

/**
 * One JSON object a line: each message as the server sent it (escaped text, full byte
 * lengths, whether it was cut); a gap or a note is an object of its own, so a reader
 * can tell a quiet channel from a missing stretch.
 */
export function toNdjson(rows: readonly Row[]): string {
  let out = '';
  for (const r of rows) out += `${JSON.stringify(r.kind === 'message' ? r.m : { note: r.text })}\n`;
  return out;
}

/** "pubsub-Prod_cache-20260102-093000.ndjson": a name every file system takes. */
export function exportName(profile: string, now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
  return `pubsub-${profile.replace(/[^A-Za-z0-9.-]+/g, '_')}-${stamp}.ndjson`;
}

/** Whether a message's channel, pattern or payload holds `query` (case-insensitive); marks always show. */
export function matches(r: Row, query: string): boolean {
  if (r.kind === 'mark') return true;
  const q = query.toLowerCase();
  const { channel, pattern, payload } = r.m;
  return channel.text.toLowerCase().includes(q) || payload.text.toLowerCase().includes(q) || (pattern?.text.toLowerCase().includes(q) ?? false);
}
