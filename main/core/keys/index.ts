/**
 * What other job folders may use of keys: a string value's download pacing (the console's
 * reply downloads stream the same way).
 */
export { DOWNLOAD_CHUNK_BYTES, DOWNLOAD_MAX_BACKLOG, roomIn, type ChunkSink } from './values/download';
