import type { Reply } from '../resp/replyReader';

/** A bulk or simple string reply as text; null for anything else (an error, nil). */
export function bulkText(r: Reply | undefined): string | null {
  if (Buffer.isBuffer(r)) return r.toString('utf8');
  return typeof r === 'string' ? r : null;
}
