import SnappyJS from 'snappyjs';

/** The stream identifier chunk every framed snappy stream starts with: ff 06 00 00 "sNaPpY". */
export const SNAPPY_FRAME_MAGIC = Buffer.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);

/**
 * Undoes the snappy framing format (github.com/google/snappy/blob/main/framing_format.txt):
 * snappyjs speaks only raw snappy blocks, so the frames are walked here and each block handed
 * to it. A chunk is a type byte, a 3-byte little-endian length, then its data; compressed and
 * uncompressed chunks start with a masked CRC-32C, which is skipped (not checked: the output is
 * for reading, and a corrupt block fails to decompress anyway). `maxBytes` bounds the output.
 */
export function unframeSnappy(input: Buffer, maxBytes: number, tooLarge: () => Error): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  let at = 0;
  while (at < input.length) {
    if (at + 4 > input.length) throw new Error(`snappy: a chunk header is cut at byte ${at}`);
    const type = input[at] as number;
    const length = input.readUIntLE(at + 1, 3);
    const start = at + 4;
    const end = start + length;
    if (end > input.length) throw new Error(`snappy: the chunk at byte ${at} needs ${length} bytes, ${input.length - start} are left`);
    const data = input.subarray(start, end);
    let out: Buffer | null = null;
    if (type === 0x00) {
      // Every block decompresses to at most 64 KB; the cap is checked as blocks add up.
      out = Buffer.from(SnappyJS.uncompress(data.subarray(4), 65_536));
    } else if (type === 0x01) {
      out = data.subarray(4);
    } else if (type >= 0x02 && type <= 0x7f) {
      throw new Error(`snappy: unknown unskippable chunk type 0x${type.toString(16)} at byte ${at}`);
    }
    // 0xff (stream identifier, may repeat), 0xfe (padding), 0x80-0xfd (skippable): nothing to add.
    if (out !== null) {
      total += out.length;
      if (total > maxBytes) throw tooLarge();
      parts.push(out);
    }
    at = end;
  }
  return Buffer.concat(parts, total);
}
