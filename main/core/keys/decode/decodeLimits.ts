/**
 * What one decode may cost. A value is untrusted: a 1 KB gzip member can inflate to 1 GB, a
 * pickle or a nested array can ask for any depth, a parser can be made to spin. Every limit is
 * named in the error it causes, so a refusal says which one was met.
 */
export interface DecodeLimits {
  /** Bytes of the value read from Redis (GETRANGE in chunks); a longer value is cut here. */
  readBytes: number;
  /** Bytes decompression may produce before it stops ("zip bomb"). */
  decompressedBytes: number;
  /** Characters of rendered text returned; past it the text is cut and `truncated` is set. */
  textChars: number;
  /** Wall-clock time one decode may run in its worker before the worker is terminated. */
  timeMs: number;
  /** Levels of nesting the rendering shows; deeper values are shown as "…". */
  depth: number;
}

export const DECODE_LIMITS: DecodeLimits = {
  readBytes: 16 * 1024 * 1024,
  decompressedBytes: 64 * 1024 * 1024,
  textChars: 2 * 1024 * 1024,
  timeMs: 2_000,
  depth: 64,
};

/** GETRANGE chunk: a 16 MB reply would hold the shared connection's other commands behind it. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** "16 MB", "64 KB", "512 bytes": limits as errors name them. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
