import type { ParseError } from '../../../app/schemas/audience';

/** A `where` text the parser cannot read: where it stopped, what it wanted, what it found. */
export class ParseFailure extends Error {
  constructor(
    readonly position: number,
    readonly expected: string[],
    readonly found: string,
    detail?: string,
  ) {
    super(`column ${position + 1}: ${detail ?? `expected ${listOf(expected)}, found ${found}`}`);
    this.name = 'ParseFailure';
  }

  toInfo(): ParseError {
    return { position: this.position, expected: this.expected, found: this.found, message: this.message };
  }
}

function listOf(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'something else';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] ?? ''}`;
}
