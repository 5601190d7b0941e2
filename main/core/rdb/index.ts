export { parseRdb, parseRdbFile, type RdbInput } from './rdbSource';
export type { RdbParseOptions } from './rdbParser';
export { RdbError, type RdbErrorKind } from './rdbError';
export type { RdbKeyRecord, RdbSummary, RdbValueType, RdbVisitor } from './rdbRecord';
export { SnapshotTally, TTL_BUCKETS, type SnapshotTallyResult, type TypeTally } from './snapshotTally';
export type { TopKey } from './topKeys';
