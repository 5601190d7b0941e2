/**
 * Length of the well-formed multi-byte UTF-8 sequence starting at buf[i]
 * (2 to 4), or 0 when it is malformed or cut off by `end`.
 */
export function utf8SequenceLength(buf: Uint8Array, i: number, end: number): number {
  const b = buf[i] as number;
  let need: number;
  let min = 0x80;
  let max = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) {
    need = 1;
  } else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    if (b === 0xe0) min = 0xa0; // below would be overlong
    if (b === 0xed) max = 0x9f; // above would be a UTF-16 surrogate
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    if (b === 0xf0) min = 0x90; // below would be overlong
    if (b === 0xf4) max = 0x8f; // above would pass U+10FFFF
  } else {
    return 0;
  }
  if (i + need >= end) return 0;
  const b1 = buf[i + 1] as number;
  if (b1 < min || b1 > max) return 0;
  for (let k = 2; k <= need; k++) {
    const c = buf[i + k] as number;
    if (c < 0x80 || c > 0xbf) return 0;
  }
  return need + 1;
}
