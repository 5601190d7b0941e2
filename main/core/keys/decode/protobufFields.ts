import protobuf from 'protobufjs/minimal.js';

/**
 * A protobuf message read without its schema: what the wire itself says. Each field is its
 * number, its wire type and a value: a varint (unsigned; also signed when its top bit is set), a fixed32 or
 * fixed64 (as integer and as float), or a length-delimited run, shown as a nested message when
 * its bytes parse as one exactly (protoc --decode_raw's heuristic), else
 * as text when they are valid UTF-8, else as bytes (see lengthDelimited). Nesting is tried to `maxDepth` levels only.
 */
export interface ProtoField {
  field: number;
  wire: 'varint' | 'fixed64' | 'bytes' | 'group' | 'fixed32';
  value: unknown;
}

const WIRE: Record<number, ProtoField['wire'] | undefined> = { 0: 'varint', 1: 'fixed64', 2: 'bytes', 3: 'group', 5: 'fixed32' };

export class ProtoError extends Error {}

function long(v: unknown): bigint {
  return BigInt(String(v));
}

function printable(b: Uint8Array): string | null {
  if (b.length === 0) return '';
  const s = Buffer.from(b).toString('utf8');
  // Valid UTF-8 only (no replacement character), and text rather than control bytes.
  if (s.includes('\ufffd')) return null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return null;
  }
  return s;
}

/**
 * Every field of `buf` as a message, or throws ProtoError naming the byte where it stopped
 * making sense. `partial`: the bytes are the first of a longer value, so a field cut at the end
 * ends the list instead (the top level only).
 */
export function readFields(buf: Uint8Array, maxDepth: number, base = 0, partial = false): ProtoField[] {
  const reader = protobuf.Reader.create(buf);
  const out: ProtoField[] = [];
  while (reader.pos < reader.len) {
    const at = reader.pos;
    let tag: number;
    try {
      tag = reader.uint32();
    } catch {
      if (partial) break;
      throw new ProtoError(`protobuf: the field tag at byte ${base + at} is cut`);
    }
    const field = tag >>> 3;
    const wire = WIRE[tag & 7];
    if (field === 0 || wire === undefined) throw new ProtoError(`protobuf: byte ${base + at} is no field tag (field ${field}, wire type ${tag & 7})`);
    try {
      switch (wire) {
        case 'varint': {
          // Unsigned, as protoc --decode_raw shows it; a negative int64/int32 (top bit set) also as signed.
          const unsigned = BigInt.asUintN(64, long(reader.uint64().toString()));
          const signed = BigInt.asIntN(64, unsigned);
          out.push({ field, wire, value: signed < 0n ? { uint: unsigned, int: signed } : unsigned });
          break;
        }
        case 'fixed64': {
          const start = reader.pos;
          reader.skip(8);
          const b = Buffer.from(buf.subarray(start, start + 8));
          out.push({ field, wire, value: { uint: b.readBigUInt64LE(0), double: b.readDoubleLE(0) } });
          break;
        }
        case 'fixed32': {
          const start = reader.pos;
          reader.skip(4);
          const b = Buffer.from(buf.subarray(start, start + 4));
          out.push({ field, wire, value: { uint: b.readUInt32LE(0), float: b.readFloatLE(0) } });
          break;
        }
        case 'bytes': {
          const bytes = reader.bytes();
          const start = reader.pos - bytes.length;
          out.push({ field, wire, value: lengthDelimited(bytes, maxDepth, base + start) });
          break;
        }
        case 'group': {
          const start = reader.pos;
          reader.skipType(3);
          out.push({ field, wire, value: buf.subarray(start, reader.pos) });
          break;
        }
      }
    } catch (e) {
      if (partial) break;
      if (e instanceof ProtoError) throw e;
      throw new ProtoError(`protobuf: field ${field} (${wire}) at byte ${base + at} runs past the end of the value`);
    }
  }
  return out;
}

/**
 * Text that starts with a printable character is text (a message's first byte is a tag, and
 * the common ones, fields 1-3, are control bytes); else a nested message if it parses as one.
 */
function lengthDelimited(bytes: Uint8Array, maxDepth: number, base: number): unknown {
  const text = printable(bytes);
  if (text !== null && (bytes[0] ?? 0) >= 0x20) return text;
  if (maxDepth > 0 && bytes.length > 0) {
    try {
      return readFields(bytes, maxDepth - 1, base);
    } catch {
      // Not a message: text or bytes, below.
    }
  }
  return text ?? bytes;
}
