import { haystack } from './lineText';
import { Ring, type RowSource } from '../../lib/ring';
import type { Row } from './rows';

function matches(row: Row, q: string): boolean {
  return row.kind === 'line' ? haystack(row).includes(q) : row.text.toLowerCase().includes(q);
}

/**
 * The rows of a source that contain the search text, kept up to date
 * incrementally: each refresh tests only the rows added since the last one and
 * forgets the matches the source has evicted, so a search costs per new line,
 * not per buffered line per frame. A new query or a new source starts over.
 */
export class SearchView {
  private readonly hits: Ring<Row>;
  private source: RowSource<Row> | undefined;
  private query = '';
  private lastSeq = -1;

  constructor(capacity: number) {
    this.hits = new Ring<Row>(capacity);
  }

  /** The rows to show: the source itself when the query is blank. */
  view(source: RowSource<Row>, query: string): RowSource<Row> {
    const q = query.trim().toLowerCase();
    if (q === '') {
      this.reset(undefined, '');
      return source;
    }
    if (source !== this.source || q !== this.query) this.reset(source, q);
    const first = source.at(0);
    if (first === undefined) {
      this.hits.clear();
      return this.hits;
    }
    while ((this.hits.at(0)?.seq ?? Infinity) < first.seq) this.hits.shift();
    // Seqs are consecutive in a source, so the first unseen row's index is a subtraction.
    for (let i = Math.max(0, this.lastSeq + 1 - first.seq); i < source.length; i++) {
      const row = source.at(i);
      if (row === undefined) break;
      if (matches(row, q)) this.hits.push(row);
      this.lastSeq = row.seq;
    }
    return this.hits;
  }

  private reset(source: RowSource<Row> | undefined, q: string): void {
    this.source = source;
    this.query = q;
    this.lastSeq = -1;
    this.hits.clear();
  }
}
