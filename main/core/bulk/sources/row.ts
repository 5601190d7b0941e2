/**
 * One parsed record as byte ranges, column by column: column i is
 * bufs[i][starts[i], ends[i]). Sources fill it in place for every record, so
 * nothing is allocated per row. Columns at index `named` and beyond carry
 * their own names (an ndjson object's fields that a hash mapping takes all of).
 */
export class Row {
  count = 0;
  bufs: Buffer[] = [];
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  nameBufs: Buffer[] = [];
  nameStarts = new Int32Array(16);
  nameEnds = new Int32Array(16);

  set(i: number, buf: Buffer, start: number, end: number): void {
    if (i >= this.starts.length) this.grow(i + 1);
    this.bufs[i] = buf;
    this.starts[i] = start;
    this.ends[i] = end;
  }

  setName(i: number, buf: Buffer, start: number, end: number): void {
    if (i >= this.nameStarts.length) this.grow(i + 1);
    this.nameBufs[i] = buf;
    this.nameStarts[i] = start;
    this.nameEnds[i] = end;
  }

  private grow(min: number): void {
    const size = Math.max(min, 2 * this.starts.length);
    const widen = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.starts = widen(this.starts);
    this.ends = widen(this.ends);
    this.nameStarts = widen(this.nameStarts);
    this.nameEnds = widen(this.nameEnds);
  }
}
