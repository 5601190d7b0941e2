import { AppError } from '../../../../app/errors';
import type { KeysReader } from './indexTargets';

export interface ScanPage {
  keys: Buffer[];
  /** Where to go on (opaque), or null when every master's SCAN came back to cursor 0. */
  cursor: string | null;
}

/** Calls one page may make before it answers with what it has (a sparse match must not hold the call for long). */
const MAX_CALLS = 200;
const COUNT = 1000;

/**
 * Up to `want` keys matching `match`, by paced SCAN MATCH (one call in flight, COUNT 1000;
 * never KEYS), master after master. The cursor carries the master's place and its SCAN
 * cursor: `s.<master>.<cursor>`. SCAN may return a key twice across pages; within a page
 * repeats are dropped.
 */
export async function scanPage(
  reader: KeysReader,
  match: Buffer,
  cursor: string | undefined,
  want: number,
  keep: (k: Buffer) => boolean = () => true,
): Promise<ScanPage> {
  const masters = await reader.masters();
  let [node, at] = parseCursor(cursor, masters.length);
  const keys: Buffer[] = [];
  const seen = new Set<string>();
  for (let calls = 0; calls < MAX_CALLS && node < masters.length && keys.length < want; calls++) {
    // callBuffer: the pattern goes as bytes (scanBuffer types it as text).
    const [next, batch] = (await (masters[node] as (typeof masters)[number]).callBuffer('SCAN', at, 'MATCH', match, 'COUNT', String(COUNT))) as [
      Buffer,
      Buffer[],
    ];
    at = next.toString('latin1');
    for (const k of batch) {
      const s = k.toString('latin1');
      if (!seen.has(s) && keep(k)) {
        seen.add(s);
        keys.push(k);
      }
    }
    if (at === '0') {
      node++;
      at = '0';
    }
  }
  return { keys, cursor: node >= masters.length ? null : `s.${node}.${at}` };
}

function parseCursor(cursor: string | undefined, masters: number): [number, string] {
  if (cursor === undefined) return [0, '0'];
  const m = /^s\.(\d{1,4})\.(\d{1,24})$/.exec(cursor);
  if (m === null || Number(m[1]) >= masters) throw new AppError('VALIDATION', 'cursor is not one this list gave (start the list again)', 'cursor');
  return [Number(m[1]), m[2] as string];
}
