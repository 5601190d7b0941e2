/**
 * What other job folders may use of keys: a string value's download pacing (the console's
 * reply downloads stream the same way).
 */
export { DOWNLOAD_CHUNK_BYTES, DOWNLOAD_MAX_BACKLOG, roomIn, type ChunkSink } from './values/download';
/** The export job's readers (core/export): a connection's reply-as-Buffer client, its reply readers, TYPE's meaning, the RESTORE file. */
export { clientOf, asArray, asBuf, asNum, asText, type ValueClient } from './values/valueClient';
export { keyTypeOf } from './values/keyType';
export { ExportFile } from './actions/exportFile';
