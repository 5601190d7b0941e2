/** Bytes per line of the hex view, as `xxd` and `hexdump -C` print them. */
export const HEX_WIDTH = 16;

export interface HexLine {
  offset: string;
  hex: string;
  ascii: string;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function hexLineCount(length: number, width = HEX_WIDTH): number {
  return Math.ceil(length / width);
}

/**
 * One line of the dump, made only when it scrolls into view: a 32 MB value never becomes
 * two million strings at once. Printable ASCII shows as itself, anything else as a dot.
 */
export function hexLine(bytes: Uint8Array, line: number, width = HEX_WIDTH): HexLine {
  const start = line * width;
  const end = Math.min(bytes.length, start + width);
  let hex = '';
  let ascii = '';
  for (let i = start; i < start + width; i++) {
    if (i === start + 8) hex += ' ';
    if (i < end) {
      const b = bytes[i] as number;
      hex += `${HEX[b] as string} `;
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    } else hex += '   ';
  }
  return { offset: start.toString(16).padStart(8, '0'), hex: hex.trimEnd(), ascii };
}
