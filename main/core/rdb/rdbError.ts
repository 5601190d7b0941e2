/**
 * Why a parse stopped. `offset` is the byte (from the file's start, after gunzip) where the
 * problem is, and `version` the RDB version read from the header (0 before it is known), so
 * the message can say where to look and which Redis wrote it.
 */
export type RdbErrorKind = 'not-rdb' | 'truncated' | 'checksum' | 'unknown-opcode' | 'unknown-type' | 'unsupported' | 'corrupt';

export class RdbError extends Error {
  constructor(
    readonly kind: RdbErrorKind,
    message: string,
    readonly offset: number,
    readonly version: number,
  ) {
    super(version > 0 ? `${message} (RDB version ${version})` : message);
    this.name = 'RdbError';
  }
}
