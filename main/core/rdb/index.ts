export { parseRdb, parseRdbFile, type RdbInput } from './rdbSource';
export type { RdbParseOptions } from './rdbParser';
export { RdbError, type RdbErrorKind } from './rdbError';
export type { RdbKeyRecord, RdbSummary, RdbValueType, RdbVisitor } from './rdbRecord';
