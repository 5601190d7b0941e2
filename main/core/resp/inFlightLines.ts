const NONE = new Uint32Array(0);

/**
 * The input lines of the batches whose replies have not all arrived yet.
 * Redis answers one connection's commands in the order it received them, so
 * reply number r belongs to command number r: the line of a failed command
 * is found by walking the (short) list of in-flight batches.
 */
export class InFlightLines {
  private firsts: number[] = [];
  private lines: Uint32Array[] = [];
  private lastLines: (Uint32Array | undefined)[] = [];
  private releases: ((() => void) | undefined)[] = [];
  private head = 0;

  /** Register a batch whose first command has the global index `first`; `done` runs once it is all answered. */
  push(first: number, lines: Uint32Array, done?: () => void, lastLines?: Uint32Array): void {
    this.firsts.push(first);
    this.lines.push(lines);
    this.lastLines.push(lastLines);
    this.releases.push(done);
  }

  /** The 1-based input line of command `index` (0-based, global), or 0 if unknown. */
  lineOf(index: number): number {
    const b = this.batchOf(index);
    return b < 0 ? 0 : (this.lines[b]?.[index - (this.firsts[b] ?? 0)] ?? 0);
  }

  /** Command `index`'s input lines as an error position: "12", or "12-75" for a command carrying several rows. */
  linesOf(index: number): string {
    const first = this.lineOf(index);
    const b = this.batchOf(index);
    const last = b < 0 ? undefined : this.lastLines[b]?.[index - (this.firsts[b] ?? 0)];
    return last === undefined || last === first ? String(first) : `${first}-${last}`;
  }

  private batchOf(index: number): number {
    // Errors belong to the oldest unanswered commands, so start at the head.
    for (let b = this.head; b < this.firsts.length; b++) {
      const next = this.firsts[b + 1];
      if (next === undefined || index < next) return b;
    }
    return -1;
  }

  /** Forget batches whose every command is answered; `sent` ends the newest batch. */
  release(replies: number, sent: number): void {
    while (this.head < this.firsts.length) {
      const end = this.firsts[this.head + 1] ?? sent;
      if (end > replies) break;
      // Drop the reference now: a source's line arrays are large and many.
      this.lines[this.head] = NONE;
      this.lastLines[this.head] = undefined;
      const done = this.releases[this.head];
      this.releases[this.head] = undefined;
      done?.();
      this.head++;
    }
    // Compact now and then rather than shift() per batch.
    if (this.head > 1024 && this.head * 2 > this.firsts.length) {
      this.firsts = this.firsts.slice(this.head);
      this.lines = this.lines.slice(this.head);
      this.lastLines = this.lastLines.slice(this.head);
      this.releases = this.releases.slice(this.head);
      this.head = 0;
    }
  }
}
