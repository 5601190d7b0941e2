import type { ByteReader } from './byteReader';
import type { RdbKeyRecord } from './rdbRecord';

/** The parser's reading primitives, as the per-type skippers in their own files use them. */
export interface ValueCursor {
  readonly r: ByteReader;
  readonly rec: RdbKeyRecord;
  /** The last string header's value length (uncompressed) and bytes stored after it. */
  readonly sLen: number;
  readonly sStored: number;
  len(): Promise<number>;
  /** Read a string header if all of it is here (false: nothing consumed); strHeadSlow waits for it. */
  strHead(): boolean;
  strHeadSlow(): Promise<void>;
  /** Skip a whole string, counting it as an element of the record. */
  skipString(): Promise<void>;
}
